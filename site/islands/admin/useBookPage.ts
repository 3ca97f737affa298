import { useCallback, useEffect, useState } from 'react';
import { api, asApiError } from '../../lib/api';
import { loadErrorMessage, type BookList } from '../../lib/admin';
import type { Loaded } from './ui/hooks';

/**
 * One page of GET admin/book for a query string. While the next page loads, the one before stays on screen
 * (`busy` says a load is under way), so that filtering and paging do not blank the table.
 */
export function useBookPage(search: string) {
  const [loaded, setLoaded] = useState<Loaded<BookList>>({ status: 'loading' });
  const [busy, setBusy] = useState(true);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    setBusy(true);
    api<BookList>(search ? `admin/book?${search}` : 'admin/book', { signal: abort.signal })
      .then((answer) => setLoaded({ status: 'ready', data: answer }))
      .catch((failure: unknown) => {
        if (abort.signal.aborted) return;
        setLoaded({
          status: 'failed',
          message: loadErrorMessage(failure),
          httpStatus: asApiError(failure).status,
        });
      })
      .finally(() => !abort.signal.aborted && setBusy(false));
    return () => abort.abort();
  }, [search, reloads]);

  /** Changes the page on screen at once (a row deleted), before `reload` brings the server's. */
  const update = useCallback(
    (change: (page: BookList) => BookList) =>
      setLoaded((current) =>
        current.status === 'ready' ? { status: 'ready', data: change(current.data) } : current,
      ),
    [],
  );
  const reload = useCallback(() => setReloads((n) => n + 1), []);

  return { loaded, busy, update, reload };
}
