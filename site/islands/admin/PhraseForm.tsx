/**
 * docs/product.md's Add Phrase (/admin/chapter/phrase/create/{chapter_id}) and, beyond the spec, Edit Phrase
 * (/admin/chapter/phrase/edit/{id}). Administrators add many phrases in a row, so after a success the form
 * empties and the phrase field takes the focus again, while the message is announced. Translations are
 * edited in TranslationsField.
 */
import { useEffect, useState, type SubmitEvent } from 'react';
import { apiUpload } from '../../lib/api';
import { adminRoutes, type Chapter, type Phrase, type Saved } from '../../lib/admin';
import { ErrorSummary, Field, SubmitButton, SuccessMessage, TextAreaField } from '../shared/Form';
import { Breadcrumb } from './ui/Breadcrumb';
import { FileField } from './ui/FileField';
import { FormErrors } from './ui/FormErrors';
import { TranslationsField } from './TranslationsField';
import { UploadProgress } from './ui/UploadProgress';
import { hasFiles, multipart, useLoad, useSubmit } from './ui/hooks';
import { PHRASE_UPLOADS } from '../../../server/platform/common/body-limits';

const FIELDS = {
  phrase: { id: 'phrase-text', label: 'Phrase' },
  dictionary: { id: 'phrase-dictionary', label: 'Dictionary' },
  line_audio: { id: 'phrase-audio', label: 'MP3 for phrase' },
  translations: { id: 'phrase-translations-error', label: 'Translations' },
};

export function AddPhraseForm({ chapterId }: { chapterId: string }) {
  const [loaded] = useLoad<Chapter>(`admin/chapter/${encodeURIComponent(chapterId)}`);
  if (loaded.status === 'loading') return <p role="status">Loading the chapter…</p>;
  if (loaded.status === 'failed') return <Failed title="Add Phrase" message={loaded.message} />;
  return (
    <PhraseForm chapterId={loaded.data.id} subtitle={`${loaded.data.book_title}, ${loaded.data.title}`} />
  );
}

export function EditPhraseForm({ phraseId }: { phraseId: string }) {
  const [loaded, update] = useLoad<Phrase>(`admin/phrase/${encodeURIComponent(phraseId)}`);
  if (loaded.status === 'loading') return <p role="status">Loading the phrase…</p>;
  if (loaded.status === 'failed') return <Failed title="Edit Phrase" message={loaded.message} />;
  return (
    <PhraseForm
      chapterId={loaded.data.chapter_id}
      phrase={loaded.data}
      subtitle={`Phrase ${loaded.data.position}`}
      onSaved={(saved) => update(() => saved)}
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

interface PhraseFormProps {
  chapterId: number;
  subtitle: string;
  /** Absent when adding. */
  phrase?: Phrase;
  onSaved?: (phrase: Phrase) => void;
}

function PhraseForm({ chapterId, subtitle, phrase, onSaved }: PhraseFormProps) {
  const { busy, error, success, progress, run } = useSubmit();
  const [generation, setGeneration] = useState(0);
  const heading = phrase ? 'Edit Phrase' : 'Add Phrase';

  useEffect(() => {
    if (generation > 0 && !phrase) document.getElementById(FIELDS.phrase.id)?.focus();
  }, [generation, phrase]);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = multipart(event.currentTarget, phrase ? {} : { chapter_id: String(chapterId) });
    const path = phrase ? `admin/phrase/${phrase.id}?_method=put` : 'admin/phrase';
    const answer = await run((onProgress) => apiUpload<Saved<Phrase>>(path, body, { onProgress }), {
      upload: hasFiles(body),
    });
    if (!answer) return;
    onSaved?.(answer.data);
    setGeneration((n) => n + 1);
  }

  return (
    <>
      <Breadcrumb
        items={[
          { label: 'Books', href: adminRoutes.books },
          { label: 'Phrase List', href: adminRoutes.phrases(chapterId) },
          { label: heading },
        ]}
      />
      <section className="form-card admin-form" aria-labelledby="phrase-heading">
        <h1 id="phrase-heading">{heading}</h1>
        <p className="form-subtitle">{subtitle}</p>
        <FormErrors error={error} fields={FIELDS} />
        <SuccessMessage focus={Boolean(phrase)}>{success && <p>{success}</p>}</SuccessMessage>
        <form
          key={generation}
          method="post"
          encType="multipart/form-data"
          onSubmit={(event) => void submit(event)}
        >
          <Field
            id={FIELDS.phrase.id}
            name="phrase"
            label="Phrase"
            defaultValue={phrase?.phrase}
            autoComplete="off"
            required
            error={error?.fieldError('phrase')}
          />
          <TextAreaField
            id={FIELDS.dictionary.id}
            name="dictionary"
            label="Dictionary"
            hint="One entry per line."
            rows={5}
            defaultValue={phrase?.dictionary}
            required
            error={error?.fieldError('dictionary')}
          />
          <TranslationsField
            errorId={FIELDS.translations.id}
            initial={phrase?.translations}
            error={(field) => error?.fieldError(field)}
          />
          {phrase && (
            <div className="current-media">
              <p id="current-line-audio">Current audio</p>
              <audio
                controls
                preload="metadata"
                src={phrase.line_audio}
                aria-labelledby="current-line-audio"
              />
            </div>
          )}
          <FileField
            id={FIELDS.line_audio.id}
            name="line_audio"
            label={phrase ? 'New MP3 for phrase (optional)' : 'MP3 for phrase'}
            kind="audio"
            formats="MP3, M4A, OGG or WAV"
            maxBytes={PHRASE_UPLOADS.line_audio}
            required={!phrase}
            error={error?.fieldError('line_audio')}
          />
          <UploadProgress percent={progress} />
          <div className="form-actions">
            <SubmitButton busy={busy}>{phrase ? 'Save changes' : 'Add Phrase'}</SubmitButton>
            <a href={adminRoutes.phrases(chapterId)}>Back to the Phrase List</a>
          </div>
        </form>
      </section>
    </>
  );
}
