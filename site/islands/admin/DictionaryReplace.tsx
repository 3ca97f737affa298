/**
 * Replace one dictionary with new files (PUT admin/dictionary/{id}): its name, languages and row stay, its
 * entries are swapped for the new ones at once when the new files are read in full; a refused file leaves
 * the old entries as they were (docs/dictionaries-admin.md).
 */
import { useEffect, useRef, type SubmitEvent } from 'react';
import { SubmitButton, SuccessMessage } from '../shared/Form';
import { DICTIONARY_ACCEPT, FilesField, ImportProgress, UploadErrors, fieldProblem } from './DictionaryFiles';
import type { DictionaryRow } from './DictionaryFiles';
import { sendDictionary } from './DictionaryUpload';
import { multipart, useSubmit } from './ui/hooks';

const FILES = { files: { id: 'replace-files', label: 'New files' } };

export function DictionaryReplace({
  dictionary,
  onReplaced,
  onCancel,
}: {
  dictionary: DictionaryRow;
  onReplaced: (dictionary: DictionaryRow) => void;
  onCancel: () => void;
}) {
  const { busy, error, success, progress, run } = useSubmit();
  const heading = useRef<HTMLHeadingElement>(null);
  // The panel opens below the list: the focus goes to it, so a screen reader and a phone follow.
  useEffect(() => heading.current?.focus(), [dictionary.id]);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = multipart(event.currentTarget);
    const answer = await run(
      (onProgress) => sendDictionary(`admin/dictionary/${dictionary.id}`, 'PUT', body, onProgress),
      { upload: true },
    );
    if (answer) onReplaced(answer.data);
  }

  return (
    <section className="form-card admin-form" aria-labelledby="dictionary-replace-heading">
      <h2 id="dictionary-replace-heading" ref={heading} tabIndex={-1}>
        Replace “{dictionary.name}”
      </h2>
      <p className="form-subtitle">
        Its entries are swapped for the new files’ in one step once they are read in full; until then, and if
        they are refused, lookups keep the current ones.
      </p>
      <UploadErrors error={error} fields={FILES} />
      <SuccessMessage focus>{success && <p>{success}</p>}</SuccessMessage>
      {!success && (
        <form method="post" encType="multipart/form-data" noValidate onSubmit={(event) => void submit(event)}>
          <FilesField
            id={FILES.files.id}
            label={FILES.files.label}
            hint="All the files of the new version, in any of the formats the import takes."
            accept={DICTIONARY_ACCEPT}
            error={fieldProblem(error, 'files')}
          />
          <ImportProgress percent={progress} busy={busy} />
          <div className="form-actions">
            <SubmitButton busy={busy}>{busy ? 'Replacing…' : 'Replace the entries'}</SubmitButton>
            <button type="button" className="button-quiet" onClick={onCancel} disabled={busy}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {success && (
        <button type="button" className="button-secondary" onClick={onCancel}>
          Close
        </button>
      )}
    </section>
  );
}
