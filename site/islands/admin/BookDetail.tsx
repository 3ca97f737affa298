/**
 * /admin/book-detail/{book_code}: docs/product.md's placeholder made real: the book's data and its chapters with
 * their phrase counts and audio lengths, in two calls (the book, then its chapters by the book's id), and
 * the Readers panel, which loads the book's insights itself; "Take it with you" (BookDownloads: the EPUB,
 * the M4B, and each chapter's subtitles in its row).
 */
import { ExportBookButton } from './BookTransfer';
import { BookDownloads, SubtitleLinks } from './BookDownloads';
import {
  adminRoutes,
  formatBookTime,
  formatDuration,
  languageName,
  LEVEL_NAMES,
  type Book,
  type BookChapters,
} from '../../lib/admin';
import { ErrorSummary } from '../shared/Form';
import { ChapterHead, ChapterRow } from './ChapterRow';
import ReadersPanel from './ReadersPanel';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { StatusRows, TableScroll } from './ui/Table';
import { useLoad } from './ui/hooks';
import { nounCount } from '../../lib/noun-count';

export default function BookDetail({ bookCode }: { bookCode: string }) {
  return (
    <AdminPage>
      <Detail bookCode={bookCode} />
    </AdminPage>
  );
}

function Detail({ bookCode }: { bookCode: string }) {
  const [loaded] = useLoad<Book>(`admin/book/${encodeURIComponent(bookCode)}`);
  const crumbs = (title: string) => (
    <Breadcrumb
      items={[
        { label: 'Dashboard', href: adminRoutes.dashboard },
        { label: 'Books', href: adminRoutes.books },
        { label: title },
      ]}
    />
  );
  if (loaded.status === 'loading') return <p role="status">Loading the book…</p>;
  if (loaded.status === 'failed') {
    return (
      <>
        {crumbs('Book Detail')}
        <h1>Book Detail</h1>
        <ErrorSummary message={loaded.message} />
      </>
    );
  }
  const book = loaded.data;
  return (
    <>
      {crumbs(book.title)}
      <h1>{book.title}</h1>
      <div className="book-detail">
        <img src={book.image_path} alt={`Cover of ${book.title}`} width={200} height={300} />
        <div>
          <dl className="facts">
            <dt>Author</dt>
            <dd>{book.author}</dd>
            <dt>Narrated by</dt>
            <dd>{book.narrated_by}</dd>
            <dt>Language</dt>
            <dd>
              {languageName(book.language)}
              {book.language && ` (${book.language})`}
            </dd>
            <dt>CEFR level</dt>
            <dd>{book.cefr ? `${book.cefr} · ${LEVEL_NAMES[book.cefr]}` : 'None'}</dd>
            <dt>Difficulty</dt>
            <dd>{book.difficulty}</dd>
            <dt>Time</dt>
            <dd>
              {formatBookTime(book.hours, book.minutes)}{' '}
              {book.length_source === 'clips' ? '(the sum of its clips)' : '(as typed)'}
            </dd>
            <dt>Book code</dt>
            <dd>{book.book_code}</dd>
          </dl>
          <ul className="row-actions">
            <li>
              <a className="button" href={adminRoutes.editBook(book.book_code)}>
                Edit book
              </a>
            </li>
            <li>
              <a href={adminRoutes.chapters(book.id)}>Chapter List</a>
            </li>
            <li>
              <a href={adminRoutes.createChapter(book.id)}>Add Chapter</a>
            </li>
            <li>
              <a href={adminRoutes.publicBook(book.book_code)} aria-describedby="preview-note">
                Preview as learner
              </a>
            </li>
            <li>
              <ExportBookButton bookCode={book.book_code} title={book.title} />
            </li>
          </ul>
          <p id="preview-note" className="field-hint">
            Opens the public book page, the one learners share. Signed in as an administrator, every chapter
            opens for you: to see the locks a visitor sees, open it in a private window.
          </p>
        </div>
      </div>
      <h2>Description</h2>
      <p className="multiline">{book.description}</p>
      <h2 id="sample-heading">Sample</h2>
      <audio controls preload="metadata" src={book.sample_audio} aria-labelledby="sample-heading" />
      <p className="multiline">{book.sample_text}</p>
      <BookDownloads bookCode={book.book_code} />
      <Chapters book={book} />
      <ReadersPanel bookCode={book.book_code} />
    </>
  );
}

function Chapters({ book }: { book: Book }) {
  const [loaded] = useLoad<BookChapters>(`admin/chapter?book_id=${book.id}`);
  const chapters = loaded.status === 'ready' ? loaded.data.chapters : [];
  const totalMs = chapters.reduce((sum, chapter) => sum + chapter.duration_ms, 0);
  const totalPhrases = chapters.reduce((sum, chapter) => sum + chapter.phrase_count, 0);
  return (
    <section aria-labelledby="chapters-heading">
      <h2 id="chapters-heading">Chapters</h2>
      {loaded.status === 'ready' && chapters.length > 0 && (
        <p>
          {nounCount(chapters.length, 'chapter')}, {nounCount(totalPhrases, 'phrase')},{' '}
          {formatDuration(totalMs)} of phrase audio.
        </p>
      )}
      <TableScroll label="Chapters of the book">
        <table className="admin-table">
          <caption>Chapters of {book.title}</caption>
          <ChapterHead />
          <tbody>
            <StatusRows
              loaded={loaded}
              columns={5}
              loading="Loading the chapters…"
              empty={chapters.length === 0 ? 'No chapters yet.' : null}
            />
            {chapters.map((chapter) => (
              <ChapterRow key={chapter.id} chapter={chapter}>
                <SubtitleLinks bookCode={book.book_code} chapterNo={chapter.chapter_no} />
              </ChapterRow>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
