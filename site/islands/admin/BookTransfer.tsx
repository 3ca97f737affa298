/**
 * Moving whole books between installations (docs/import.md, "Whole books"): an Export button that asks for
 * a short-lived signed link and lets the browser download the zip itself (streamed, never held in the
 * page), and the /admin/books/import page: a book's zip uploaded, previewed, then created or discarded.
 */
import { useState, type SubmitEvent } from 'react';
import { api, apiUpload, asApiError, errorMessage } from '../../lib/api';
import { adminRoutes, formatDuration } from '../../lib/admin';
import type { BookImportResponse } from '../../../server/publishing/imports/book-imports.dto';
import { ErrorSummary, SuccessMessage } from '../shared/Form';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { TableScroll } from './ui/Table';
import { UploadProgress } from './ui/UploadProgress';
import { nounCount } from '../../lib/noun-count';

export function ExportBookButton({
  bookCode,
  title,
  className,
}: {
  bookCode: string;
  title: string;
  className?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const { data } = await api<{ data: { url: string } }>(
        `admin/book/${encodeURIComponent(bookCode)}/export-link`,
        { method: 'POST' },
      );
      // A plain navigation: the browser streams the attachment to disk.
      window.location.assign(data.url);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className={className ?? 'link-button'}
        onClick={() => void download()}
        disabled={busy}
      >
        {busy ? 'Preparing…' : 'Export'}
        <span className="visually-hidden"> {title} as a zip</span>
      </button>
      {error && (
        <span role="alert" className="field-error">
          {error}
        </span>
      )}
    </>
  );
}

export default function ImportBook() {
  return (
    <AdminPage>
      <Importer />
    </AdminPage>
  );
}

/** A value as book.json has it, of any JSON type (the errors list says what is wrong with it), as text. */
function asWritten(value: unknown, missing: string): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an object shows as String() shows it, as before
  return String(value ?? missing);
}

function Importer() {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [preview, setPreview] = useState<BookImportResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ message: string; code: string | null } | null>(null);
  const [busy, setBusy] = useState(false);

  async function stage(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    if (!file) return setError('Choose the zip of a book exported from Lingonovel, or a read-along EPUB.');
    const body = new FormData();
    body.set('zip', file);
    setBusy(true);
    try {
      setPreview(
        (
          await apiUpload<{ data: BookImportResponse }>('admin/book/import', body, {
            onProgress: setProgress,
          })
        ).data,
      );
    } catch (failure) {
      const problem = asApiError(failure);
      setError(problem.fieldError('zip') ?? errorMessage(failure));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  async function commit() {
    if (!preview) return;
    setBusy(true);
    try {
      const answer = await api<{ message: string; data: { book_code: string } }>(
        `admin/import/${preview.import_id}/commit`,
        { method: 'POST' },
      );
      setPreview(null);
      setDone({ message: answer.message, code: answer.data.book_code });
    } catch (failure) {
      setError(asApiError(failure).message || errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  async function discard() {
    if (!preview) return;
    await api(`admin/import/${preview.import_id}`, { method: 'DELETE' }).catch(() => undefined);
    setPreview(null);
    setDone({ message: 'The import has been discarded. Nothing was added.', code: null });
  }

  return (
    <>
      <Breadcrumb items={[{ label: 'Books', href: adminRoutes.books }, { label: 'Import a book' }]} />
      <h1>Import a book</h1>
      <ErrorSummary message={error} />
      <SuccessMessage focus>
        {done && (
          <>
            {done.message} {done.code && <a href={adminRoutes.bookDetail(done.code)}>Open the book</a>}
          </>
        )}
      </SuccessMessage>
      {!preview && (
        <form className="admin-form import-form" onSubmit={(event) => void stage(event)}>
          <p>
            A book exported from a Lingonovel installation (its Export button): book.json, the cover, the
            sample and a folder per chapter with its phrases and clips. Nothing is created before you confirm.
          </p>
          <p>
            Or a read-along EPUB (EPUB 3 with Media Overlays, as publishers and Storyteller make them): each
            phrase it reads aloud becomes a phrase with its own clip, and its chapters follow the book&rsquo;s
            reading order. An EPUB without read-along audio is refused.
          </p>
          <label>
            Book zip or EPUB
            <input
              type="file"
              accept=".zip,application/zip,.epub,application/epub+zip"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </label>
          <UploadProgress percent={progress} />
          <button type="submit" className="button" disabled={busy}>
            {busy ? 'Reading the book…' : 'Preview'}
          </button>
        </form>
      )}
      {preview && (
        <section aria-labelledby="book-preview">
          <h2 id="book-preview">Preview: {asWritten(preview.book.title, '(no title)')}</h2>
          <p>
            By {asWritten(preview.book.author, '?')}, narrated by {asWritten(preview.book.narrated_by, '?')}.{' '}
            {nounCount(preview.chapters.length, 'chapter')},{' '}
            {nounCount(
              preview.chapters.reduce((sum, chapter) => sum + chapter.rows, 0),
              'phrase',
            )}
            .
          </p>
          {preview.errors.length > 0 ? (
            <div className="form-alert" role="alert">
              <p>
                {preview.errors.length === 1 ? 'One problem' : `${preview.errors.length} problems`} to fix
                first:
              </p>
              <ul>
                {preview.errors.slice(0, 50).map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            </div>
          ) : (
            <p role="status">The book is ready to import.</p>
          )}
          <TableScroll label="Chapters to import">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Chapter</th>
                  <th scope="col">Title</th>
                  <th scope="col">Phrases</th>
                  <th scope="col">Length</th>
                  <th scope="col">Problems</th>
                </tr>
              </thead>
              <tbody>
                {preview.chapters.map((chapter) => (
                  <tr key={chapter.folder}>
                    <th scope="row">{chapter.chapter_no ?? '?'}</th>
                    <td>{chapter.title}</td>
                    <td>{chapter.rows}</td>
                    <td>{formatDuration(chapter.duration_ms)}</td>
                    <td>{chapter.errors.length ? chapter.errors.join(' ') : 'None'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <div className="page-actions">
            <button
              type="button"
              className="button"
              onClick={() => void commit()}
              disabled={busy || preview.errors.length > 0}
            >
              Import the book
            </button>
            <button type="button" onClick={() => void discard()} disabled={busy}>
              Discard
            </button>
          </div>
        </section>
      )}
    </>
  );
}
