import { useCallback, useState } from 'react';
import { api, ApiError, GENERIC_ERROR } from '../../../lib/api';
import type { ConfirmOptions } from './ConfirmDialog';

/**
 * Deleting a row: ask first, then call the API, then drop the row at once and show the server's message
 * (docs/product.md section 4 says the list "does not visibly refresh": ours does).
 */
export function useDeleter(confirm: (options: ConfirmOptions) => Promise<boolean>) {
  const [pending, setPending] = useState<number | string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const remove = useCallback(
    async (
      key: number | string,
      path: string,
      options: ConfirmOptions,
      onDeleted: () => void,
      /** What to say when the server answers with no message (a 204). */
      done?: string,
    ) => {
      if (!(await confirm(options))) return;
      setPending(key);
      setMessage(null);
      setError(null);
      try {
        const answer = await api<{ message: string } | null>(path, { method: 'DELETE' });
        onDeleted();
        setMessage(answer?.message ?? done ?? null);
      } catch (failure) {
        // A 404 (deleted meanwhile, elsewhere) explains itself; anything else gets the generic message.
        setError(failure instanceof ApiError && failure.status === 404 ? failure.message : GENERIC_ERROR);
      } finally {
        setPending(null);
      }
    },
    [confirm],
  );

  return { pending, message, error, remove, setMessage, setError };
}
