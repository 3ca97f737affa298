/**
 * The import form of /admin/dictionaries (POST admin/dictionary): the files of one dictionary, its two
 * languages, and the name, licence and attribution where the files do not say them. A refused file is
 * named with its line under the files field; nothing is kept of a refused import (docs/dictionaries.md).
 */
import { useState, type SubmitEvent } from 'react';
import { apiUpload } from '../../lib/api';
import { Field, SubmitButton, SuccessMessage } from '../shared/Form';
import {
  DICTIONARY_ACCEPT,
  FilesField,
  ImportProgress,
  UploadErrors,
  fieldProblem,
  formatCount,
  type DictionaryRow,
} from './DictionaryFiles';
import { LanguageField } from './LanguageField';
import { multipart, useSubmit } from './ui/hooks';

/** The API's field names, with the inputs' ids and labels (for the error summary's links). */
const FIELDS = {
  files: { id: 'dictionary-files', label: 'Dictionary files' },
  source: { id: 'dictionary-source', label: 'Language of the headwords' },
  target: { id: 'dictionary-target', label: 'Language of the definitions' },
  name: { id: 'dictionary-name', label: 'Name (optional)' },
  licence: { id: 'dictionary-licence', label: 'Licence (optional)' },
  attribution: { id: 'dictionary-attribution', label: 'Attribution (optional)' },
};

const FROM_FILE = 'Left empty, it is taken from the files where they have it (dictd and StarDict do).';

/** A dictionary's answer, with a message the form can show. */
export async function sendDictionary(
  path: string,
  method: 'POST' | 'PUT',
  body: FormData,
  onProgress: (percent: number) => void,
): Promise<{ message: string; data: DictionaryRow }> {
  const answer = await apiUpload<{ message?: string; data: DictionaryRow }>(path, body, {
    method,
    onProgress,
  });
  const { name, entries } = answer.data;
  return {
    data: answer.data,
    message:
      answer.message ??
      `${method === 'POST' ? 'Imported' : 'Replaced'} ${name}: ${formatCount(entries)} ${entries === 1 ? 'entry' : 'entries'}.`,
  };
}

export function DictionaryUpload({ onImported }: { onImported: (dictionary: DictionaryRow) => void }) {
  const { busy, error, success, progress, run } = useSubmit();
  // A new key empties the form for the next dictionary.
  const [generation, setGeneration] = useState(0);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = multipart(event.currentTarget);
    const answer = await run((onProgress) => sendDictionary('admin/dictionary', 'POST', body, onProgress), {
      upload: true,
    });
    if (answer) {
      onImported(answer.data);
      setGeneration((n) => n + 1);
    }
  }

  const problem = (name: keyof typeof FIELDS) => fieldProblem(error, name);
  return (
    <section className="form-card admin-form" aria-labelledby="dictionary-import-heading">
      <h2 id="dictionary-import-heading">Import a dictionary</h2>
      <UploadErrors error={error} fields={FIELDS} />
      <SuccessMessage focus>{success && <p>{success}</p>}</SuccessMessage>
      {/* noValidate: the server's one answer names every problem, the files' included. */}
      <form
        key={generation}
        method="post"
        encType="multipart/form-data"
        noValidate
        onSubmit={(event) => void submit(event)}
      >
        <FilesField
          id={FIELDS.files.id}
          label={FIELDS.files.label}
          hint="All the files of one dictionary at once: dictd's .index and .dict.dz; StarDict's .ifo, .idx, .dict or .dict.dz (and .syn); or one TSV or CSV of headword, definition and part of speech."
          accept={DICTIONARY_ACCEPT}
          error={problem('files')}
        />
        <div className="field-row">
          <LanguageField
            id={FIELDS.source.id}
            name="source"
            label={FIELDS.source.label}
            defaultValue=""
            required
            hint="The language looked up, such as es (FreeDict's spa-eng is es to en)."
            error={problem('source')}
          />
          <LanguageField
            id={FIELDS.target.id}
            name="target"
            label={FIELDS.target.label}
            defaultValue="en"
            required
            hint="The language the meanings are written in, such as en."
            error={problem('target')}
          />
        </div>
        <Field
          id={FIELDS.name.id}
          name="name"
          label={FIELDS.name.label}
          hint={FROM_FILE}
          maxLength={200}
          error={problem('name')}
        />
        <Field
          id={FIELDS.licence.id}
          name="licence"
          label={FIELDS.licence.label}
          hint={FROM_FILE}
          maxLength={1000}
          error={problem('licence')}
        />
        <Field
          id={FIELDS.attribution.id}
          name="attribution"
          label={FIELDS.attribution.label}
          hint={`Shown under every lookup from this dictionary. ${FROM_FILE}`}
          maxLength={1000}
          error={problem('attribution')}
        />
        <ImportProgress percent={progress} busy={busy} />
        <div>
          <SubmitButton busy={busy}>{busy ? 'Importing…' : 'Import the dictionary'}</SubmitButton>
        </div>
      </form>
    </section>
  );
}
