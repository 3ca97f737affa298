/** /admin/dashboard/create-book: docs/product.md's Add Book form, with the upload's progress. */
import { useState, type SubmitEvent } from 'react';
import { ApiError, apiUpload, asApiError } from '../../lib/api';
import { adminRoutes, type Book, type Saved } from '../../lib/admin';
import { SubmitButton, SuccessMessage } from '../shared/Form';
import { BOOK_FIELDS, BookFields } from './BookFields';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { FormErrors } from './ui/FormErrors';
import { UploadProgress } from './ui/UploadProgress';
import { multipart, useSubmit } from './ui/hooks';

const LANGUAGE_REQUIRED = 'The language field is required.';

/**
 * Add Book names every problem in one pass (docs/product.md section 5): the server's one 422 names the
 * fields and the files together. The one rule it does not hold is the form's own: the language, which
 * the API leaves optional. A blank language is added to the server's answer; alone, it is said without
 * sending anything, since the server would take the book.
 */
async function addBook(form: HTMLFormElement, onProgress: (percent: number) => void): Promise<Saved<Book>> {
  const body = multipart(form);
  const language = body.get('language');
  const languageMissing = typeof language !== 'string' || !language.trim();
  // Any other field the browser finds wrong, the server refuses too: then its answer names them all.
  const otherProblem = [...form.elements].some(
    (element) =>
      element.id !== BOOK_FIELDS.language.id &&
      (element instanceof HTMLInputElement ||
        element instanceof HTMLTextAreaElement ||
        element instanceof HTMLSelectElement) &&
      element.willValidate &&
      !element.validity.valid,
  );
  if (languageMissing && !otherProblem)
    throw new ApiError(422, LANGUAGE_REQUIRED, { language: [LANGUAGE_REQUIRED] });
  try {
    return await apiUpload<Saved<Book>>('admin/book', body, { onProgress });
  } catch (failure) {
    const problem = asApiError(failure);
    if (problem.status !== 422 || !languageMissing) throw failure;
    throw new ApiError(422, problem.message, { language: [LANGUAGE_REQUIRED], ...problem.fieldErrors });
  }
}

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
    const form = event.currentTarget;
    setCreated(null);
    const answer = await run((onProgress) => addBook(form, onProgress), { upload: true });
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
        {/* noValidate: the server's one answer names every problem, the files' included, where the
            browser's own checks would stop at the first empty field (docs/product.md section 5). */}
        <form
          key={generation}
          method="post"
          encType="multipart/form-data"
          noValidate
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
