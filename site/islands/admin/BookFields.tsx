/**
 * The fields of docs/product.md's Add Book and Edit Book forms. On Add Book everything is required, files
 * and the language included (the API keeps the language optional: a book without one is under "Other
 * language"); on Edit Book the files and the language are optional and the current cover and sample are
 * shown beside them. The CEFR level is optional on both.
 */
import type { ApiError } from '../../lib/api';
import { CEFR_LEVELS, DIFFICULTIES, formatBookTime, LEVEL_NAMES, type Book } from '../../lib/admin';
import { Field, SelectField, TextAreaField } from '../shared/Form';
import { FileField } from './ui/FileField';
import { LanguageField } from './LanguageField';
import { BOOK_UPLOADS } from '../../../server/platform/common/body-limits';

export const BOOK_FIELDS = {
  title: { id: 'book-title', label: 'Title' },
  author: { id: 'book-author', label: 'Author' },
  narrated_by: { id: 'book-narrated-by', label: 'Narrated by' },
  language: { id: 'book-language', label: 'Language' },
  cefr: { id: 'book-cefr', label: 'CEFR level' },
  hours: { id: 'book-hours', label: 'Hours' },
  minutes: { id: 'book-minutes', label: 'Minutes' },
  description: { id: 'book-description', label: 'Description' },
  difficulty: { id: 'book-difficulty', label: 'Difficulty' },
  book_image: { id: 'book-image', label: 'Cover image' },
  sample_audio: { id: 'book-sample-audio', label: 'Sample audio' },
  sample_text: { id: 'book-sample-text', label: 'Sample text' },
};

export function BookFields({ book, error }: { book?: Book; error: ApiError | null }) {
  const editing = Boolean(book);
  const text = (name: 'title' | 'author' | 'narrated_by', autoComplete = 'off') => (
    <Field
      id={BOOK_FIELDS[name].id}
      name={name}
      label={BOOK_FIELDS[name].label}
      defaultValue={book?.[name]}
      autoComplete={autoComplete}
      required
      error={error?.fieldError(name)}
    />
  );
  return (
    <>
      {text('title')}
      {text('author')}
      {text('narrated_by')}
      <LanguageField
        id={BOOK_FIELDS.language.id}
        label={BOOK_FIELDS.language.label}
        defaultValue={book?.language ?? ''}
        required={!editing}
        error={error?.fieldError('language')}
      />
      <fieldset
        className="field-row"
        aria-describedby={book?.length_source === 'clips' ? 'book-length-note' : undefined}
      >
        <legend>Length of the book</legend>
        {book?.length_source === 'clips' && (
          <p id="book-length-note" className="field-hint">
            Its clips last {formatBookTime(book.hours, book.minutes)}, which is the length every page shows.
            The length typed here is shown only while the book has no clips.
          </p>
        )}
        <Field
          id={BOOK_FIELDS.hours.id}
          name="hours"
          label="Hours"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          defaultValue={book?.typed_hours}
          required
          error={error?.fieldError('hours')}
        />
        <Field
          id={BOOK_FIELDS.minutes.id}
          name="minutes"
          label="Minutes"
          type="number"
          inputMode="numeric"
          min={0}
          max={59}
          step={1}
          defaultValue={book?.typed_minutes}
          required
          error={error?.fieldError('minutes')}
        />
      </fieldset>
      <TextAreaField
        id={BOOK_FIELDS.description.id}
        name="description"
        label="Description"
        rows={4}
        defaultValue={book?.description}
        required
        error={error?.fieldError('description')}
      />
      <SelectField
        id={BOOK_FIELDS.difficulty.id}
        name="difficulty"
        label="Difficulty"
        options={DIFFICULTIES}
        defaultValue={book?.difficulty ?? 'Easy'}
        required
        error={error?.fieldError('difficulty')}
      />
      <SelectField
        id={BOOK_FIELDS.cefr.id}
        name="cefr"
        label={BOOK_FIELDS.cefr.label}
        hint="The Common European Framework level a learner needs to read the book."
        options={[
          { value: '', label: 'None' },
          ...CEFR_LEVELS.map((level) => ({ value: level, label: `${level} · ${LEVEL_NAMES[level]}` })),
        ]}
        defaultValue={book?.cefr ?? ''}
        error={error?.fieldError('cefr')}
      />
      {book && (
        <figure className="current-media">
          <img src={book.image_path} alt={`Current cover of ${book.title}`} width={120} height={180} />
          <figcaption>Current cover</figcaption>
        </figure>
      )}
      <FileField
        id={BOOK_FIELDS.book_image.id}
        name="book_image"
        label={editing ? 'New cover image (optional)' : 'Cover image'}
        kind="image"
        formats="JPEG, PNG or WebP"
        maxBytes={BOOK_UPLOADS.book_image}
        required={!editing}
        error={error?.fieldError('book_image')}
      />
      {book && (
        <div className="current-media">
          <p id="current-sample-label">Current sample audio</p>
          <audio controls preload="metadata" src={book.sample_audio} aria-labelledby="current-sample-label" />
        </div>
      )}
      <FileField
        id={BOOK_FIELDS.sample_audio.id}
        name="sample_audio"
        label={editing ? 'New sample audio (optional)' : 'Sample audio'}
        kind="audio"
        formats="MP3, M4A, OGG or WAV"
        maxBytes={BOOK_UPLOADS.sample_audio}
        required={!editing}
        error={error?.fieldError('sample_audio')}
      />
      <TextAreaField
        id={BOOK_FIELDS.sample_text.id}
        name="sample_text"
        label="Sample text"
        rows={6}
        defaultValue={book?.sample_text}
        required
        error={error?.fieldError('sample_text')}
      />
    </>
  );
}
