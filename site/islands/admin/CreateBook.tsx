/** /admin/dashboard/create-book: docs/product.md's Add Book form, with the upload's progress. */
import { useState, type SubmitEvent } from 'react';
import { apiUpload } from '../../lib/api';
import { adminRoutes, type Book, type Saved } from '../../lib/admin';
import { SubmitButton, SuccessMessage } from '../shared/Form';
import { BOOK_FIELDS, BookFields } from './BookFields';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { FormErrors } from './ui/FormErrors';
import { UploadProgress } from './ui/UploadProgress';
import { multipart, useSubmit } from './ui/hooks';

export default function CreateBook() {
  return (
    <AdminPage>
      <CreateBookForm />
    </AdminPage>
  );
}

function CreateBookForm() {
  const { busy, error, success, progress, run } = useSubmit();
  const [created, setCreated] = useState<Book | null>(null);
  // A new key empties the form (files and previews included) for the next book.
  const [generation, setGeneration] = useState(0);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = multipart(event.currentTarget);
    setCreated(null);
    const answer = await run((onProgress) => apiUpload<Saved<Book>>('admin/book', body, { onProgress }), {
      upload: true,
    });
    if (answer) {
      setCreated(answer.data);
      setGeneration((n) => n + 1);
    }
  }

  return (
    <>
      <Breadcrumb
        items={[
          { label: 'Dashboard', href: adminRoutes.dashboard },
          { label: 'Books', href: adminRoutes.books },
          { label: 'Add Book' },
        ]}
      />
      <section className="form-card admin-form" aria-labelledby="add-book-heading">
        <h1 id="add-book-heading">Add Book</h1>
        <FormErrors error={error} fields={BOOK_FIELDS} />
        <SuccessMessage focus>
          {success && <p>{success}</p>}
          {created && (
            <p>
              <a href={adminRoutes.editBook(created.book_code)}>Edit “{created.title}”</a>
              {' · '}
              <a href={adminRoutes.createChapter(created.id)}>Add a chapter to it</a>
              {' · '}
              <a href={adminRoutes.books}>Back to the Book List</a>
            </p>
          )}
        </SuccessMessage>
        <form
          key={generation}
          method="post"
          encType="multipart/form-data"
          onSubmit={(event) => void submit(event)}
        >
          <BookFields error={error} />
          <UploadProgress percent={progress} />
          <div>
            <SubmitButton busy={busy}>{busy ? 'Saving…' : 'Add Book'}</SubmitButton>
          </div>
        </form>
      </section>
    </>
  );
}
