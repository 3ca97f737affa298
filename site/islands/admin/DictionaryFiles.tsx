/**
 * What the dictionary and word-form screens share (/admin/dictionaries, docs/dictionaries-admin.md): the
 * shapes the admin API answers, a multiple-file field that lists what was chosen, and the message a
 * failed upload shows.
 */
import { useState } from 'react';
import { asApiError, errorMessage, GENERIC_ERROR } from '../../lib/api';
import { ErrorSummary, FieldShell } from '../shared/Form';
import { formatSize } from './ui/FileField';
import { UploadProgress } from './ui/UploadProgress';

/** GET admin/dictionary: one live dictionary. */
export interface DictionaryRow {
  id: number;
  name: string;
  source: string;
  target: string;
  entries: number;
  format: string;
  licence?: string | null;
  attribution?: string | null;
  updated_at?: string | null;
}

/** GET admin/word-forms: one language's forms from one origin. */
export interface WordFormSetRow {
  lang: string;
  origin: string;
  forms: number;
  lemmas: number;
  updated_at?: string | null;
}

/** The parts of a dictionary the server reads (docs/dictionaries-admin.md): dictd, StarDict, TSV or CSV. */
export const DICTIONARY_ACCEPT = '.index,.dict,.dz,.ifo,.idx,.gz,.syn,.tsv,.csv,.txt';
/** Hunspell's pair, or a list of forms and lemmas. */
export const WORD_FORMS_ACCEPT = '.aff,.dic,.tsv,.csv';

/** A count for people: "12,345". */
export const formatCount = (count: number): string => count.toLocaleString('en-US');

/** A date the server gives (ISO), as a short day; '' when there is none. */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
}

/**
 * What a failed upload shows, in the server's words when they say what to do: a refused file or field
 * (422, naming the file and line), an import already running (409), files too large (413), a dictionary
 * deleted meanwhile (404). Anything else gets the generic message.
 */
export function uploadProblem(failure: unknown): string {
  const problem = asApiError(failure);
  // A proxy's 413 has no message of ours.
  if (problem.status === 413 && problem.message === GENERIC_ERROR)
    return 'The files are too large for this server (docs/dictionaries-admin.md says what the limits are).';
  if ([404, 409, 413, 422].includes(problem.status)) return problem.message;
  return errorMessage(failure);
}

/** The first message the server gave for a field, under `name` or one of its items (`files.0`). */
export function fieldProblem(failure: unknown, name: string): string | undefined {
  if (!failure) return undefined;
  const errors = asApiError(failure).fieldErrors;
  const key = Object.keys(errors).find((field) => field === name || field.startsWith(`${name}.`));
  return key ? errors[key][0] : undefined;
}

/** A file input taking several files at once, each named once chosen; the form sends them as `files`. */
export function FilesField({
  id,
  label,
  hint,
  accept,
  error,
}: {
  id: string;
  label: string;
  hint: string;
  accept: string;
  error?: string;
}) {
  const [chosen, setChosen] = useState<File[]>([]);
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      {(a11y) => (
        <>
          <input
            id={id}
            name="files"
            type="file"
            multiple
            accept={accept}
            required
            {...a11y}
            onChange={(event) => setChosen([...(event.currentTarget.files ?? [])])}
          />
          {chosen.length > 0 && (
            <ul className="file-chosen" aria-label="Chosen files">
              {chosen.map((file) => (
                <li key={file.name}>
                  {file.name} ({formatSize(file.size)})
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </FieldShell>
  );
}

/** The red summary above an upload form: the problem, then a link to each field the server refused. */
export function UploadErrors({
  error,
  fields,
}: {
  error: unknown;
  fields: Record<string, { id: string; label: string }>;
}) {
  const links = error
    ? Object.entries(fields).flatMap(([name, { id, label }]) => {
        const message = fieldProblem(error, name);
        return message ? [{ field: id, text: `${label}: ${message}` }] : [];
      })
    : [];
  return <ErrorSummary message={error ? uploadProblem(error) : null} links={links} />;
}

/** The upload's progress, then, once the files are sent, that the server is reading them. */
export function ImportProgress({ percent, busy }: { percent: number | null; busy: boolean }) {
  return (
    <UploadProgress
      percent={percent}
      text={busy && percent === 100 ? 'Upload complete. Reading the entries…' : undefined}
    />
  );
}
