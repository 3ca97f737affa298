import { useCallback, useEffect, useState } from 'react';
import { api, asApiError } from '../../../lib/api';
import { loadErrorMessage } from '../../../lib/admin';

export type Loaded<T> =
  | { status: 'loading' }
  | { status: 'ready'; data: T }
  | { status: 'failed'; message: string; httpStatus: number };

/** Loads `{ data }` from one admin call once; the island can then change its copy (a row deleted, …). */
export function useLoad<T>(path: string): [Loaded<T>, (update: (data: T) => T) => void] {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    setState({ status: 'loading' });
    api<{ data: T }>(path, { signal: abort.signal })
      .then(({ data }) => setState({ status: 'ready', data }))
      .catch((failure: unknown) => {
        if (abort.signal.aborted) return;
        setState({
          status: 'failed',
          message: loadErrorMessage(failure),
          httpStatus: asApiError(failure).status,
        });
      });
    return () => abort.abort();
  }, [path]);
  const update = useCallback(
    (change: (data: T) => T) =>
      setState((current) =>
        current.status === 'ready' ? { status: 'ready', data: change(current.data) } : current,
      ),
    [],
  );
  return [state, update];
}

export { useSubmit } from '../../shared/useSubmit';

/** True when the form holds at least one chosen file: only then does it show an upload's progress. */
export function hasFiles(form: FormData): boolean {
  for (const value of form.values()) if (value instanceof File && value.size > 0) return true;
  return false;
}

/**
 * A form's data for the API: a file input left empty is dropped (on an edit, "no file" means "keep the
 * current one"), and text is sent as typed.
 */
export function multipart(form: HTMLFormElement, extra: Record<string, string> = {}): FormData {
  const data = new FormData(form);
  for (const [name, value] of [...data.entries()]) {
    if (value instanceof File && value.size === 0 && !value.name) data.delete(name);
  }
  for (const [name, value] of Object.entries(extra)) data.set(name, value);
  return data;
}
