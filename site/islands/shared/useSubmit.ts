import { useCallback, useState } from 'react';
import { asApiError, type ApiError } from '../../lib/api';

/**
 * docs/product.md section 4's form flow: clear the previous messages, send, then show the server's message in
 * green or the error in red. `progress` follows the upload when the call sends files.
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  const run = useCallback(
    async <T extends { message: string }>(
      send: (onProgress: (percent: number) => void) => Promise<T>,
      { upload = false } = {},
    ): Promise<T | null> => {
      setBusy(true);
      setError(null);
      setSuccess(null);
      setProgress(upload ? 0 : null);
      try {
        const answer = await send(setProgress);
        setSuccess(answer.message);
        return answer;
      } catch (failure) {
        setError(asApiError(failure));
        setProgress(null);
        return null;
      } finally {
        setBusy(false);
      }
    },
    [],
  );

  return { busy, error, success, progress, run };
}
