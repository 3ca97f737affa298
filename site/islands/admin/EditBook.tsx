/**
 * /admin/books/edit/{book_code}: docs/product.md's Edit Book, prefilled from the server. The files are optional;
 * the current cover and sample are shown, and a newly chosen file is previewed before it is sent.
 */
import { useState, type SubmitEvent } from 'react';
import { apiUpload } from '../../lib/api';
import { adminRoutes, type Book, type Saved } from '../../lib/admin';
import { ErrorSummary, SubmitButton, SuccessMessage } from '../shared/Form';
import { BOOK_FIELDS, BookFields } from './BookFields';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { FormErrors } from './ui/FormErrors';
import { UploadProgress } from './ui/UploadProgress';
import { hasFiles, multipart, useLoad, useSubmit } from './ui/hooks';

export default function EditBook({ bookCode }: { bookCode: string }) {
  return (
    <AdminPage>
      <EditBookForm bookCode={bookCode} />
    </AdminPage>
  );
}

function EditBookForm({ bookCode }: { bookCode: string }) {
  const [loaded, update] = useLoad<Book>(`admin/book/${encodeURIComponent(bookCode)}`);
  const { busy, error, success, progress, run } = useSubmit();
  const [generation, setGeneration] = useState(0);

  const crumbs = (title?: string) => (
    <Breadcrumb
      items={[
        { label: 'Dashboard', href: adminRoutes.dashboard },
        { label: 'Books', href: adminRoutes.books },
        ...(title ? [{ label: title, href: adminRoutes.bookDetail(bookCode) }] : []),
        { label: 'Edit Book' },
      ]}
    />
  );

  if (loaded.status === 'loading') return <p role="status">Loading the book…</p>;
  if (loaded.status === 'failed') {
    return (
      <>
        {crumbs()}
        <h1>Edit Book</h1>
        <ErrorSummary message={loaded.message} />
      </>
    );
  }
  const book = loaded.data;

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = multipart(event.currentTarget);
    const answer = await run(
      (onProgress) =>
        apiUpload<Saved<Book>>(`admin/book/${encodeURIComponent(bookCode)}?_method=put`, body, {
          onProgress,
        }),
      { upload: hasFiles(body) },
    );
    if (answer) {
      update(() => answer.data);
      // The new values become the form's defaults, and the file inputs are emptied.
      setGeneration((n) => n + 1);
    }
  }

  return (
    <>
      {crumbs(book.title)}
      <section className="form-card admin-form" aria-labelledby="edit-book-heading">
        <h1 id="edit-book-heading">Edit Book</h1>
        <p className="form-subtitle">{book.title}</p>
        <FormErrors error={error} fields={BOOK_FIELDS} />
        <SuccessMessage focus>{success && <p>{success}</p>}</SuccessMessage>
        {/* noValidate: the server's one answer names every problem, the files' included, where the
            browser's own checks would stop at the first empty field (docs/product.md section 5). */}
        <form
          key={generation}
          method="post"
          encType="multipart/form-data"
          noValidate
          onSubmit={(event) => void submit(event)}
        >
          <BookFields book={book} error={error} />
          <UploadProgress percent={progress} />
          <div className="form-actions">
            <SubmitButton busy={busy}>{busy ? 'Saving…' : 'Save changes'}</SubmitButton>
            <a href={adminRoutes.chapters(book.id)}>Chapter List</a>
            <a href={adminRoutes.publicBook(book.book_code)}>Public page</a>
          </div>
        </form>
      </section>
    </>
  );
}
