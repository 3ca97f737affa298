/**
 * /admin/chapter/list/{book_id}: docs/product.md's Chapter List: the book's title and its chapters, in one call.
 * Deleting a chapter (its phrases and their audio go too) shows the server's message and, unlike the
 * spec's list, removes the row at once.
 */
import { adminRoutes, type BookChapters, type ChapterSummary } from '../../lib/admin';
import { ChapterHead, ChapterRow } from './ChapterRow';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { useConfirm } from './ui/ConfirmDialog';
import { ListMessages } from './ui/ListMessages';
import { StatusRows, TableScroll } from './ui/Table';
import { useDeleter } from './ui/useDeleter';
import { useLoad } from './ui/hooks';
import { nounCount } from '../../lib/noun-count';

const COLUMNS = 5;

export default function ChapterList({ bookId }: { bookId: string }) {
  return (
    <AdminPage>
      <Chapters bookId={bookId} />
    </AdminPage>
  );
}

function Chapters({ bookId }: { bookId: string }) {
  const [loaded, update] = useLoad<BookChapters>(`admin/chapter?book_id=${encodeURIComponent(bookId)}`);
  const [dialog, confirm] = useConfirm();
  const deleter = useDeleter(confirm);
  const book = loaded.status === 'ready' ? loaded.data : null;
  const chapters = book?.chapters ?? [];

  function remove(chapter: ChapterSummary) {
    void deleter.remove(
      chapter.id,
      `admin/chapter/${chapter.id}`,
      {
        title: `Delete chapter ${chapter.chapter_no}, “${chapter.title}”?`,
        body: (
          <p>
            {chapter.phrase_count === 1
              ? 'Its phrase and its audio'
              : `Its ${nounCount(chapter.phrase_count, 'phrase')} and their audio`}{' '}
            will be deleted too. This cannot be undone.
          </p>
        ),
        confirmLabel: 'Delete chapter',
      },
      () => update((data) => ({ ...data, chapters: data.chapters.filter((item) => item.id !== chapter.id) })),
    );
  }

  return (
    <>
      <Breadcrumb
        items={[
          { label: 'Dashboard', href: adminRoutes.dashboard },
          { label: 'Books', href: adminRoutes.books },
          ...(book ? [{ label: book.title, href: adminRoutes.bookDetail(book.book_code) }] : []),
          { label: 'Chapter List' },
        ]}
      />
      <div className="page-head">
        <div>
          <h1>Chapter List</h1>
          {book && (
            <p className="form-subtitle">
              {book.title} · {nounCount(chapters.length, 'chapter')}
            </p>
          )}
        </div>
        <div className="page-actions">
          <a className="button" href={adminRoutes.createChapter(bookId)}>
            Add Chapter
          </a>
        </div>
      </div>
      <ListMessages message={deleter.message} error={deleter.error} />
      <TableScroll label="Chapter List">
        <table className="admin-table">
          <caption>{book ? `Chapters of ${book.title}` : 'Chapters'}</caption>
          <ChapterHead />
          <tbody>
            <StatusRows
              loaded={loaded}
              columns={COLUMNS}
              loading="Loading the chapters…"
              empty={chapters.length === 0 ? 'No chapters yet.' : null}
            />
            {chapters.map((chapter) => (
              <ChapterRow key={chapter.id} chapter={chapter}>
                <li>
                  <button
                    type="button"
                    className="link-button danger"
                    disabled={deleter.pending === chapter.id}
                    onClick={() => remove(chapter)}
                  >
                    {deleter.pending === chapter.id ? 'Deleting…' : 'Delete'}
                    <span className="visually-hidden"> chapter {chapter.title}</span>
                  </button>
                </li>
              </ChapterRow>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {dialog}
    </>
  );
}
