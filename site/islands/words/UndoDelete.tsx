/**
 * The few seconds after a word is deleted: "“Fähre” deleted" with Undo, at the bottom of the screen. No
 * confirmation beforehand. The message is announced (a live region that is always in the page), and the
 * focus, whose Delete button is gone, goes to Undo: one Enter takes the delete back. It stays while the
 * pointer is on it or the keyboard's focus is (not a focus only put there for the pointer's click), but
 * never past the server's own undo window.
 */
import { useEffect, useRef, useState } from 'react';
import type { WordResponse } from '../../../server/learning/words/words.dto';
import { cardName } from '../../lib/cards';

export interface Deleted {
  word: WordResponse;
  /** Until when the server restores it (epoch ms). */
  until: number;
}

/** How long Undo is offered, unless the member is on it. */
export const UNDO_SHOWN_MS = 8000;

interface Props {
  deleted: Deleted | null;
  onUndo: (word: WordResponse) => void;
  /** The offer ran out; `hadFocus` when the focus was on it (it needs a new place). */
  onExpire: (hadFocus: boolean) => void;
}

export function UndoDelete({ deleted, onUndo, onExpire }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const [held, setHeld] = useState({ pointer: false, focus: false });
  const paused = held.pointer || held.focus;

  useEffect(() => {
    if (!deleted) return;
    // Held: only the server's window is left to run out (a little before it, for the request).
    const wait = Math.max(0, Math.min(paused ? Infinity : UNDO_SHOWN_MS, deleted.until - Date.now() - 2000));
    const timer = setTimeout(() => onExpire(!!box.current?.contains(document.activeElement)), wait);
    return () => clearTimeout(timer);
  }, [deleted, paused, onExpire]);

  useEffect(() => {
    setHeld({ pointer: false, focus: false });
    if (deleted) button.current?.focus();
  }, [deleted]);

  return (
    <div
      ref={box}
      className="undo-delete"
      role="status"
      onPointerEnter={() => setHeld((h) => ({ ...h, pointer: true }))}
      onPointerLeave={() => setHeld((h) => ({ ...h, pointer: false }))}
      onFocus={(event) => event.target.matches(':focus-visible') && setHeld((h) => ({ ...h, focus: true }))}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setHeld((h) => ({ ...h, focus: false }));
      }}
    >
      {deleted && (
        <p>
          <span>“{cardName(deleted.word)}” deleted.</span>{' '}
          <button ref={button} type="button" onClick={() => onUndo(deleted.word)}>
            Undo
          </button>
        </p>
      )}
    </div>
  );
}
