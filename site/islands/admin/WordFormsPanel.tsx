/**
 * Word forms, so that a lookup of "casas" finds "casa" (docs/word-forms.md): each language's sets (GET
 * admin/word-forms), one from Hunspell and one list of irregular forms at most; an upload (POST
 * admin/word-forms: an .aff and its .dic, or one TSV or CSV of form and lemma) replaces the set of its
 * origin; Delete removes one.
 */
import { useState, type SubmitEvent } from 'react';
import { api, apiUpload } from '../../lib/api';
import { languageName } from '../../lib/admin';
import { SubmitButton, SuccessMessage } from '../shared/Form';
import {
  FilesField,
  ImportProgress,
  UploadErrors,
  WORD_FORMS_ACCEPT,
  fieldProblem,
  formatCount,
  formatDay,
  type WordFormSetRow,
} from './DictionaryFiles';
import { LanguageField } from './LanguageField';
import { useConfirm } from './ui/ConfirmDialog';
import { ListMessages } from './ui/ListMessages';
import { EmptyRow, StatusRows, TableScroll } from './ui/Table';
import { multipart, useLoad, useSubmit } from './ui/hooks';
import { useDeleter } from './ui/useDeleter';

const COLUMNS = 5;
const ORIGINS: Record<string, string> = { hunspell: 'Hunspell', list: 'List of forms' };
const FIELDS = {
  files: { id: 'word-forms-files', label: 'Word form files' },
  lang: { id: 'word-forms-lang', label: 'Language' },
};

const setKey = (set: WordFormSetRow) => `${set.lang}/${set.origin}`;

export function WordFormsPanel() {
  const [loaded, update] = useLoad<WordFormSetRow[]>('admin/word-forms');
  const [dialog, confirm] = useConfirm();
  const deleter = useDeleter(confirm);
  const sets = loaded.status === 'ready' ? loaded.data : [];

  function remove(set: WordFormSetRow) {
    const name = `${languageName(set.lang)} (${ORIGINS[set.origin] ?? set.origin})`;
    void deleter.remove(
      setKey(set),
      `admin/word-forms/${encodeURIComponent(set.lang)}/${encodeURIComponent(set.origin)}`,
      {
        title: `Delete the word forms of ${name}?`,
        body: (
          <p>Lookups in this language stop finding headwords through these {formatCount(set.forms)} forms.</p>
        ),
        confirmLabel: 'Delete word forms',
      },
      () => update((list) => list.filter((item) => setKey(item) !== setKey(set))),
      `The word forms of ${name} have been deleted.`,
    );
  }

  /**
   * An upload replaces its language's set of the same origin, or adds one. Its answer names no origin,
   * so the list is asked again, to show the rows as the server keeps them (a failure keeps the old list).
   */
  const uploaded = () =>
    void api<{ data: WordFormSetRow[] }>('admin/word-forms').then(
      ({ data }) => update(() => data),
      () => undefined,
    );

  return (
    <section aria-labelledby="word-forms-heading">
      <h2 id="word-forms-heading">Word forms</h2>
      <p className="form-subtitle">
        They lead an inflected form to its headword: “casas” to “casa”. Hunspell gives the regular forms, a
        list the irregular ones (“fue” to “ir”).
      </p>
      <ListMessages message={deleter.message} error={deleter.error} />
      <TableScroll label="Table of the word forms">
        <table className="admin-table">
          <caption className="visually-hidden">Word forms</caption>
          <thead>
            <tr>
              <th scope="col">Language</th>
              <th scope="col">From</th>
              <th scope="col">Forms</th>
              <th scope="col">Lemmas</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            <StatusRows loaded={loaded} columns={COLUMNS} loading="Loading the word forms…" empty={null} />
            {loaded.status === 'ready' && sets.length === 0 && (
              <EmptyRow columns={COLUMNS}>
                No word forms yet: lookups find only the forms a dictionary lists. Upload a Hunspell
                dictionary below, such as Debian’s hunspell-es (/usr/share/hunspell/es_ES.aff and .dic).
              </EmptyRow>
            )}
            {sets.map((set) => (
              <tr key={setKey(set)}>
                <th scope="row">
                  {languageName(set.lang)}
                  {set.updated_at && <span className="row-note">Updated {formatDay(set.updated_at)}</span>}
                </th>
                <td data-label="From">{ORIGINS[set.origin] ?? set.origin}</td>
                <td data-label="Forms">{formatCount(set.forms)}</td>
                <td data-label="Lemmas">{formatCount(set.lemmas)}</td>
                <td className="actions-cell">
                  <ul className="row-actions">
                    <li>
                      <button
                        type="button"
                        className="link-button danger"
                        disabled={deleter.pending === setKey(set)}
                        onClick={() => remove(set)}
                      >
                        {deleter.pending === setKey(set) ? 'Deleting…' : 'Delete'}
                        <span className="visually-hidden">
                          {' '}
                          the word forms of {languageName(set.lang)} from {ORIGINS[set.origin] ?? set.origin}
                        </span>
                      </button>
                    </li>
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <WordFormsUpload onUploaded={uploaded} />
      {dialog}
    </section>
  );
}

function WordFormsUpload({ onUploaded }: { onUploaded: () => void }) {
  const { busy, error, success, progress, run } = useSubmit();
  const [generation, setGeneration] = useState(0);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = multipart(event.currentTarget);
    const answer = await run(
      async (onProgress) => {
        const sent = await apiUpload<{
          message?: string;
          data: { lang: string; forms: number; lemmas: number };
        }>('admin/word-forms', body, { onProgress });
        const { lang, forms, lemmas } = sent.data;
        return {
          message:
            sent.message ??
            `${languageName(lang)}: ${formatCount(forms)} forms of ${formatCount(lemmas)} lemmas.`,
        };
      },
      { upload: true },
    );
    if (answer) {
      onUploaded();
      setGeneration((n) => n + 1);
    }
  }

  return (
    <div className="form-card admin-form">
      <h3 id="word-forms-upload-heading">Upload word forms</h3>
      <UploadErrors error={error} fields={FIELDS} />
      <SuccessMessage focus>{success && <p>{success}</p>}</SuccessMessage>
      <form
        key={generation}
        method="post"
        encType="multipart/form-data"
        noValidate
        aria-labelledby="word-forms-upload-heading"
        onSubmit={(event) => void submit(event)}
      >
        <FilesField
          id={FIELDS.files.id}
          label={FIELDS.files.label}
          hint="A Hunspell dictionary’s .aff and .dic together, or one TSV or CSV of form and lemma, one pair a line."
          accept={WORD_FORMS_ACCEPT}
          error={fieldProblem(error, 'files')}
        />
        <LanguageField
          id={FIELDS.lang.id}
          name="lang"
          label={FIELDS.lang.label}
          defaultValue=""
          required
          hint="The language of the forms, such as es."
          error={fieldProblem(error, 'lang')}
        />
        <ImportProgress percent={progress} busy={busy} />
        <div>
          <SubmitButton busy={busy}>{busy ? 'Uploading…' : 'Upload word forms'}</SubmitButton>
        </div>
      </form>
    </div>
  );
}
