/**
 * The order of a chapter's phrases as the list shows it, and its saving. Moves show at once; they are
 * saved together a moment after the last one (one PUT admin/chapter/{id}/phrase-order for a run of arrow
 * presses), one request at a time. When a save fails, the list goes back to the last order the server
 * confirmed, and the error is shown.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorMessage } from '../../lib/api';
import { moveItem, type Phrase, type Saved } from '../../lib/admin';

const SAVE_DELAY_MS = 400;

export type OrderStatus =
  | { state: 'idle' }
  | { state: 'saving' }
  | { state: 'saved'; message: string }
  | { state: 'failed'; message: string };

const sameOrder = (a: readonly Phrase[], b: readonly Phrase[]) =>
  a.length === b.length && a.every((phrase, index) => phrase.id === b[index].id);

export function usePhraseOrder(chapterId: number, initial: Phrase[]) {
  const [phrases, setPhrases] = useState(initial);
  const [status, setStatus] = useState<OrderStatus>({ state: 'idle' });
  const current = useRef(initial);
  const confirmed = useRef(initial);
  const timer = useRef<number | undefined>(undefined);
  const sending = useRef(false);
  const again = useRef(false);

  const show = useCallback((next: Phrase[]) => {
    current.current = next;
    setPhrases(next);
  }, []);

  const flush = useCallback(async () => {
    if (sending.current) {
      again.current = true;
      return;
    }
    const order = current.current;
    if (sameOrder(order, confirmed.current)) return;
    sending.current = true;
    setStatus({ state: 'saving' });
    try {
      const { message } = await api<Saved<Phrase[]>>(`admin/chapter/${chapterId}/phrase-order`, {
        method: 'PUT',
        body: { ids: order.map((phrase) => phrase.id) },
      });
      confirmed.current = order;
      setStatus({ state: 'saved', message });
    } catch (failure) {
      again.current = false;
      show(confirmed.current);
      setStatus({ state: 'failed', message: errorMessage(failure) });
    } finally {
      sending.current = false;
      if (again.current) {
        again.current = false;
        void flush();
      }
    }
  }, [chapterId, show]);

  const move = useCallback(
    (from: number, to: number): boolean => {
      const list = current.current;
      if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return false;
      show(moveItem(list, from, to));
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void flush(), SAVE_DELAY_MS);
      return true;
    },
    [flush, show],
  );

  /** After a deletion: the phrase leaves both the shown and the confirmed order. */
  const drop = useCallback(
    (id: number) => {
      confirmed.current = confirmed.current.filter((phrase) => phrase.id !== id);
      show(current.current.filter((phrase) => phrase.id !== id));
    },
    [show],
  );

  // Leaving with a move not yet saved asks first, as any unsaved form would.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!sameOrder(current.current, confirmed.current)) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      window.removeEventListener('beforeunload', warn);
      window.clearTimeout(timer.current);
    };
  }, []);

  return { phrases, status, move, drop, current };
}
