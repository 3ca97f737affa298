/**
 * /admin/chapter/phrase/list/{chapter_id}: docs/product.md's Phrase List in one call, with what administrators
 * need beyond it: edit and delete per phrase, and reordering by dragging a row's handle, with the handle
 * and the keyboard (Space picks up, arrows move, Space drops, Escape cancels), or with Move up and Move
 * down buttons. Every move is announced; the new order is saved by usePhraseOrder.
 */
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { adminRoutes, type ChapterPhrases, type Phrase } from '../../lib/admin';
import { ErrorSummary } from '../shared/Form';
import { PhraseRow, handleId, type RowActions } from './PhraseRow';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { useConfirm } from './ui/ConfirmDialog';
import { ListMessages } from './ui/ListMessages';
import { EmptyRow, TableScroll } from './ui/Table';
import { useDeleter } from './ui/useDeleter';
import { useLoad } from './ui/hooks';
import { usePhraseOrder } from './usePhraseOrder';
import { useRowDrag } from './useRowDrag';

const COLUMNS = 6;

export default function PhraseList({ chapterId }: { chapterId: string }) {
  return (
    <AdminPage>
      <Loader chapterId={chapterId} />
    </AdminPage>
  );
}

function Loader({ chapterId }: { chapterId: string }) {
  const [loaded] = useLoad<ChapterPhrases>(`admin/phrase?chapter_id=${encodeURIComponent(chapterId)}`);
  if (loaded.status === 'ready') return <Phrases chapter={loaded.data} />;
  return (
    <>
      <Breadcrumb items={[{ label: 'Books', href: adminRoutes.books }, { label: 'Phrase List' }]} />
      <h1>Phrase List</h1>
      <PhraseTable>
        {loaded.status === 'loading' ? (
          <EmptyRow columns={COLUMNS}>
            <span role="status">Loading the phrases…</span>
          </EmptyRow>
        ) : (
          <EmptyRow columns={COLUMNS}>{loaded.message}</EmptyRow>
        )}
      </PhraseTable>
    </>
  );
}

function Phrases({ chapter }: { chapter: ChapterPhrases }) {
  const order = usePhraseOrder(chapter.id, chapter.phrases);
  const { phrases, move } = order;
  const [dialog, confirm] = useConfirm();
  const deleter = useDeleter(confirm);
  const [grabbed, setGrabbed] = useState<{ id: number; origin: number } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const focusAfterMove = useRef<string | null>(null);
  // The row handlers are made once; they read the grab through this ref.
  const grabbedRef = useRef(grabbed);
  useLayoutEffect(() => {
    grabbedRef.current = grabbed;
  });

  const announceMove = useCallback(
    (phrase: Phrase, to: number, verb = 'Moved') =>
      setAnnouncement(`${verb} “${phrase.phrase}” to position ${to + 1} of ${order.current.current.length}.`),
    [order.current],
  );

  const [drag, dragHandlers] = useRowDrag((from, to) => {
    const phrase = order.current.current[from];
    focusAfterMove.current = handleId(phrase);
    if (move(from, to)) announceMove(phrase, to);
  });

  // A moved row's DOM node may be taken out and put back, which drops the focus: give it back.
  useLayoutEffect(() => {
    if (!focusAfterMove.current) return;
    document.getElementById(focusAfterMove.current)?.focus();
    focusAfterMove.current = null;
  }, [phrases]);

  const actions = useMemo<RowActions>(
    () => ({
      drag: dragHandlers,
      toggleGrab(phrase, index) {
        if (grabbedRef.current?.id === phrase.id) {
          setGrabbed(null);
          setAnnouncement(`Dropped “${phrase.phrase}” at position ${index + 1}.`);
          return;
        }
        setGrabbed({ id: phrase.id, origin: index });
        setAnnouncement(
          `Picked up “${phrase.phrase}” at position ${index + 1}. Use the up and down arrow keys to move it, Space to drop it, Escape to cancel.`,
        );
      },
      grabKey(event, phrase, index) {
        const current = grabbedRef.current;
        if (current?.id !== phrase.id) return;
        const to = event.key === 'ArrowUp' ? index - 1 : event.key === 'ArrowDown' ? index + 1 : null;
        if (to !== null) {
          event.preventDefault();
          focusAfterMove.current = handleId(phrase);
          if (move(index, to)) announceMove(phrase, to);
        } else if (event.key === 'Escape') {
          event.preventDefault();
          focusAfterMove.current = handleId(phrase);
          move(index, current.origin);
          setGrabbed(null);
          setAnnouncement(`Cancelled. “${phrase.phrase}” is back at position ${current.origin + 1}.`);
        }
      },
      releaseGrab(phrase) {
        if (focusAfterMove.current) return;
        setGrabbed((current) => (current?.id === phrase.id ? null : current));
      },
      moveBy(phrase, index, delta, focusId) {
        focusAfterMove.current = focusId;
        if (move(index, index + delta)) announceMove(phrase, index + delta);
      },
      remove(phrase) {
        void deleter.remove(
          phrase.id,
          `admin/phrase/${phrase.id}`,
          {
            title: 'Delete this phrase?',
            body: (
              <p>
                “{phrase.phrase}” and its audio will be deleted. The phrases after it move up. This cannot be
                undone.
              </p>
            ),
            confirmLabel: 'Delete phrase',
          },
          () => order.drop(phrase.id),
        );
      },
    }),
    [dragHandlers, move, announceMove, deleter.remove, order.drop],
  );

  return (
    <>
      <Breadcrumb
        items={[
          { label: 'Books', href: adminRoutes.books },
          { label: 'Chapters', href: adminRoutes.chapters(chapter.book_id) },
          { label: chapter.title },
          { label: 'Phrase List' },
        ]}
      />
      <div className="page-head">
        <div>
          <h1>Phrase List</h1>
          <p className="form-subtitle">
            {chapter.book_title}, chapter {chapter.chapter_no}: {chapter.title}
          </p>
        </div>
        <div className="page-actions">
          <a className="button" href={adminRoutes.createPhrase(chapter.id)}>
            Add Phrase
          </a>
          <a className="button button-secondary" href={adminRoutes.importPhrases(chapter.id)}>
            Import phrases
          </a>
        </div>
      </div>
      <ListMessages message={deleter.message} error={deleter.error} />
      <ErrorSummary message={order.status.state === 'failed' ? order.status.message : null} />
      <p role="status" className="order-status">
        {order.status.state === 'saving' && 'Saving the new order…'}
        {order.status.state === 'saved' && order.status.message}
      </p>
      <p id="reorder-help" className="visually-hidden">
        Drag the handle to move a phrase, or press Space on it, move it with the up and down arrow keys, and
        press Space again to drop it. Escape cancels.
      </p>
      <p className="visually-hidden" aria-live="assertive">
        {announcement}
      </p>
      <PhraseTable>
        {phrases.length === 0 && <EmptyRow columns={COLUMNS}>No phrases yet.</EmptyRow>}
        {phrases.map((phrase, index) => (
          <PhraseRow
            key={phrase.id}
            phrase={phrase}
            index={index}
            count={phrases.length}
            grabbed={grabbed?.id === phrase.id}
            dragging={drag?.from === index}
            dropTarget={drag !== null && drag.over === index && drag.from !== index}
            deleting={deleter.pending === phrase.id}
            actions={actions}
          />
        ))}
      </PhraseTable>
      {dialog}
    </>
  );
}

function PhraseTable({ children }: { children: ReactNode }) {
  return (
    <TableScroll label="Phrase List">
      <table className="admin-table phrase-table">
        <caption>Phrase List</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">No.</th>
            <th scope="col">Phrase</th>
            <th scope="col">Dictionary</th>
            <th scope="col">Audio</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}
