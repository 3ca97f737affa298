/**
 * /admin/books: docs/product.md's Book List, one page at a time from the server (GET admin/book), with the
 * public catalogue's search, filters and sort; the URL keeps them (`?q=gato&lang=es&page=2`), so reload,
 * Back and a shared link show the same list. Beyond the spec, Delete works: it asks first, then removes
 * the book (its chapters, phrases and files go with it) and its row at once.
 */
import { useEffect } from 'react';
import { ExportBookButton } from './BookTransfer';
import { adminRoutes, formatBookTime, languageName, type Book } from '../../lib/admin';
import { BookListFilters } from './BookListFilters';
import { ClipButton } from './ClipButton';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { useConfirm } from './ui/ConfirmDialog';
import { ListMessages } from './ui/ListMessages';
import { Pager } from './ui/Pager';
import { EmptyRow, StatusRows, TableScroll } from './ui/Table';
import { useDeleter } from './ui/useDeleter';
import { useBookPage } from './useBookPage';
import { listQueryString, NARROWING } from '../../lib/list-query';
import { useListQuery } from './useListQuery';

const COLUMNS = 11;

export default function BookList() {
  return (
    <AdminPage>
      <Books />
    </AdminPage>
  );
}

function Books() {
  const [query, change] = useListQuery();
  const search = listQueryString(query);
  const { loaded, busy, update, reload } = useBookPage(search);
  const [dialog, confirm] = useConfirm();
  const deleter = useDeleter(confirm);

  const answer = loaded.status === 'ready' ? loaded.data : null;
  const books = answer?.data ?? [];
  const meta = answer?.meta;
  const pages = meta ? Math.max(1, Math.ceil(meta.total / meta.per_page)) : 1;
  const narrowed = NARROWING.some((param) => query[param].trim() !== '');

  // A page past the end (its last book deleted, or an old link): show the last one instead.
  useEffect(() => {
    if (!busy && meta && books.length === 0 && meta.total > 0 && meta.page > pages)
      change({ page: String(pages) }, 'replace');
  }, [busy, meta, books.length, pages, change]);

  function remove(book: Book) {
    void deleter.remove(
      book.id,
      `admin/book/${encodeURIComponent(book.book_code)}`,
      {
        title: `Delete “${book.title}”?`,
        body: (
          <p>
            The book, its chapters, its phrases and all their audio files will be deleted. This cannot be
            undone.
          </p>
        ),
        confirmLabel: 'Delete book',
      },
      () => {
        update((page) => ({
          data: page.data.filter((item) => item.id !== book.id),
          meta: { ...page.meta, total: page.meta.total - 1 },
        }));
        // The server's page again: the next book moves up into this one.
        reload();
      },
    );
  }

  const pageHref = (page: number) => {
    const search = listQueryString({ ...query, page: String(page) });
    return `${adminRoutes.books}${search ? `?${search}` : ''}`;
  };
  const goToPage = (page: number) => {
    change({ page: String(page) });
    document.getElementById('book-list-heading')?.scrollIntoView({ block: 'start' });
  };

  return (
    <>
      <Breadcrumb items={[{ label: 'Dashboard', href: adminRoutes.dashboard }, { label: 'Books' }]} />
      <div className="page-head">
        <h1 id="book-list-heading">Books</h1>
        <div className="page-actions">
          <a className="button" href={adminRoutes.createBook}>
            Add Book
          </a>
          <a className="button button-secondary" href={adminRoutes.importBook}>
            Import a book
          </a>
        </div>
      </div>
      <BookListFilters query={query} change={change} facets={meta?.facets ?? null} />
      <ListMessages message={deleter.message} error={deleter.error} />
      <p className="list-summary" role="status">
        {meta && summary(meta.total, meta.page, pages, narrowed)}
      </p>
      <TableScroll label="Book List">
        <table className="admin-table book-table" aria-busy={busy || undefined}>
          <caption>Book List</caption>
          <thead>
            <tr>
              <th scope="col">Image</th>
              <th scope="col" className="col-title">
                Title
              </th>
              <th scope="col" className="col-person">
                Author
              </th>
              <th scope="col" className="col-person">
                Narrated by
              </th>
              <th scope="col" className="col-language">
                Language
              </th>
              <th scope="col">Description</th>
              <th scope="col">Difficulty</th>
              <th scope="col">Time</th>
              <th scope="col" className="col-audio">
                Sample audio
              </th>
              <th scope="col">Sample text</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            <StatusRows
              loaded={loaded}
              columns={COLUMNS}
              loading="Loading the books…"
              empty={books.length === 0 && !narrowed ? 'No books found' : null}
            />
            {loaded.status === 'ready' && books.length === 0 && narrowed && (
              <EmptyRow columns={COLUMNS}>
                No book matches this search and these filters.{' '}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => change({ lang: '', cefr: '', difficulty: '', q: '', page: '' })}
                >
                  Show every book
                </button>
              </EmptyRow>
            )}
            {books.map((book) => (
              <tr key={book.id}>
                <td className="cover-cell">
                  <img
                    className="table-cover"
                    src={book.image_path}
                    alt={`Cover of ${book.title}`}
                    width={60}
                    height={90}
                    loading="lazy"
                  />
                </td>
                <th scope="row">
                  <a href={adminRoutes.bookDetail(book.book_code)}>{book.title}</a>
                </th>
                <td data-label="Author">{book.author}</td>
                <td data-label="Narrated by">{book.narrated_by}</td>
                <td data-label="Language" className="language-cell">
                  {languageName(book.language)}
                </td>
                <td data-label="Description">
                  <p className="clamp">{book.description}</p>
                </td>
                <td data-label="Difficulty">
                  {book.difficulty}{' '}
                  <span className="cefr-level">{book.cefr ? `CEFR ${book.cefr}` : 'No CEFR level'}</span>
                </td>
                <td data-label="Time" className="nowrap">
                  {formatBookTime(book.hours, book.minutes)}
                </td>
                <td data-label="Sample audio">
                  <ClipButton src={book.sample_audio} name={`the sample of ${book.title}`} />
                </td>
                <td data-label="Sample text">
                  <p className="clamp multiline">{book.sample_text}</p>
                </td>
                <td className="actions-cell">
                  <ul className="row-actions">
                    <li>
                      <a href={adminRoutes.editBook(book.book_code)}>
                        Edit<span className="visually-hidden"> {book.title}</span>
                      </a>
                    </li>
                    <li>
                      <a href={adminRoutes.chapters(book.id)}>
                        Chapter List<span className="visually-hidden"> of {book.title}</span>
                      </a>
                    </li>
                    <li>
                      <ExportBookButton bookCode={book.book_code} title={book.title} />
                    </li>
                    <li>
                      <button
                        type="button"
                        className="link-button danger"
                        disabled={deleter.pending === book.id}
                        onClick={() => remove(book)}
                      >
                        {deleter.pending === book.id ? 'Deleting…' : 'Delete'}
                        <span className="visually-hidden"> {book.title}</span>
                      </button>
                    </li>
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {meta && (
        <Pager label="Pages of the Book List" page={meta.page} pages={pages} href={pageHref} go={goToPage} />
      )}
      {dialog}
    </>
  );
}

/** "312 books, page 2 of 7", or "3 books found" under a search or a filter; nothing for an empty list. */
function summary(total: number, page: number, pages: number, narrowed: boolean): string {
  if (total === 0) return '';
  const count = `${total.toLocaleString('en-US')} ${total === 1 ? 'book' : 'books'}${narrowed ? ' found' : ''}`;
  return pages > 1
    ? `${count}, page ${page.toLocaleString('en-US')} of ${pages.toLocaleString('en-US')}`
    : count;
}
