/**
 * docs/product.md's Add Chapter (/admin/books/chapter/create/{book_id}) and Edit Chapter (/admin/chapters/edit/{id}):
 * a title and a chapter number. Adding suggests the number after the book's last chapter, and after a
 * success the form is ready for the next chapter.
 */
import { useState, type SubmitEvent } from 'react';
import { api } from '../../lib/api';
import { adminRoutes, type BookChapters, type Chapter, type Saved } from '../../lib/admin';
import { ErrorSummary, Field, SubmitButton, SuccessMessage, formValues } from '../shared/Form';
import { Breadcrumb } from './ui/Breadcrumb';
import { FormErrors } from './ui/FormErrors';
import { useLoad, useSubmit } from './ui/hooks';

const FIELDS = {
  title: { id: 'chapter-title', label: 'Chapter title' },
  chapter_no: { id: 'chapter-number', label: 'Chapter number' },
};

interface Target {
  bookId: number;
  bookTitle: string;
  /** Absent when adding. */
  chapter?: Chapter;
  suggestedNumber?: number;
}

export function AddChapterForm({ bookId }: { bookId: string }) {
  const [loaded, update] = useLoad<BookChapters>(`admin/chapter?book_id=${encodeURIComponent(bookId)}`);
  if (loaded.status === 'loading') return <p role="status">Loading the book…</p>;
  if (loaded.status === 'failed') return <Failed title="Add Chapter" message={loaded.message} />;
  const book = loaded.data;
  const last = Math.max(0, ...book.chapters.map((chapter) => chapter.chapter_no));
  return (
    <ChapterForm
      target={{ bookId: book.id, bookTitle: book.title, suggestedNumber: last + 1 }}
      onSaved={(chapter) =>
        update((data) => ({
          ...data,
          chapters: [...data.chapters, { ...chapter, phrase_count: 0, duration_ms: 0 }],
        }))
      }
    />
  );
}

export function EditChapterForm({ chapterId }: { chapterId: string }) {
  const [loaded, update] = useLoad<Chapter>(`admin/chapter/${encodeURIComponent(chapterId)}`);
  if (loaded.status === 'loading') return <p role="status">Loading the chapter…</p>;
  if (loaded.status === 'failed') return <Failed title="Edit Chapter" message={loaded.message} />;
  const chapter = loaded.data;
  return (
    <ChapterForm
      target={{ bookId: chapter.book_id, bookTitle: chapter.book_title, chapter }}
      onSaved={(saved) => update((data) => ({ ...data, title: saved.title, chapter_no: saved.chapter_no }))}
    />
  );
}

function Failed({ title, message }: { title: string; message: string }) {
  return (
    <>
      <Breadcrumb items={[{ label: 'Books', href: adminRoutes.books }, { label: title }]} />
      <h1>{title}</h1>
      <ErrorSummary message={message} />
    </>
  );
}

type SavedChapter = Omit<Chapter, 'book_code' | 'book_title'>;

function ChapterForm({ target, onSaved }: { target: Target; onSaved: (chapter: SavedChapter) => void }) {
  const { busy, error, success, run } = useSubmit();
  const [created, setCreated] = useState<SavedChapter | null>(null);
  const [generation, setGeneration] = useState(0);
  const editing = target.chapter;
  const heading = editing ? 'Edit Chapter' : 'Add Chapter';

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = formValues(event.currentTarget, ['title', 'chapter_no'] as const);
    const body = { ...values, book_id: target.bookId };
    const answer = await run(() =>
      editing
        ? api<Saved<SavedChapter>>(`admin/chapter/${editing.id}`, { method: 'PUT', body })
        : api<Saved<SavedChapter>>('admin/chapter', { method: 'POST', body }),
    );
    if (!answer) return;
    onSaved(answer.data);
    if (!editing) {
      setCreated(answer.data);
      setGeneration((n) => n + 1);
    }
  }

  return (
    <>
      <Breadcrumb
        items={[
          { label: 'Books', href: adminRoutes.books },
          { label: target.bookTitle, href: adminRoutes.chapters(target.bookId) },
          { label: heading },
        ]}
      />
      <section className="form-card admin-form" aria-labelledby="chapter-heading">
        <h1 id="chapter-heading">{heading}</h1>
        <p className="form-subtitle">{target.bookTitle}</p>
        <FormErrors error={error} fields={FIELDS} />
        <SuccessMessage focus>
          {success && <p>{success}</p>}
          {created && (
            <p>
              <a href={adminRoutes.createPhrase(created.id)}>Add phrases to “{created.title}”</a>
            </p>
          )}
        </SuccessMessage>
        <form key={generation} method="post" onSubmit={(event) => void submit(event)}>
          <Field
            id={FIELDS.title.id}
            name="title"
            label={FIELDS.title.label}
            defaultValue={editing?.title}
            autoComplete="off"
            required
            error={error?.fieldError('title')}
          />
          <Field
            id={FIELDS.chapter_no.id}
            name="chapter_no"
            label={FIELDS.chapter_no.label}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            defaultValue={editing?.chapter_no ?? target.suggestedNumber}
            required
            error={error?.fieldError('chapter_no')}
          />
          <div className="form-actions">
            <SubmitButton busy={busy}>{editing ? 'Save changes' : 'Add Chapter'}</SubmitButton>
            <a href={adminRoutes.chapters(target.bookId)}>Back to the Chapter List</a>
          </div>
        </form>
      </section>
    </>
  );
}
