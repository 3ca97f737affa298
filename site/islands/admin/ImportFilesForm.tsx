/**
 * The import's first step (docs/import.md): the chapter's text and its audio, dropped or chosen (a zip,
 * many clips, a folder of them, or one recording of the whole chapter), and whether they go after the
 * chapter's phrases or replace them. Nothing is saved yet: Preview uploads the files for a look.
 */
import type { DragEvent } from 'react';
import { UploadProgress } from './ui/UploadProgress';
import type { ChapterImport } from './useChapterImport';

const TEXT_NAME = /\.(tsv|csv|txt|text)$/i;
/** What a folder holds beside its clips: system files, images, documents. */
const JUNK_NAME = /^(\.|thumbs\.db$|desktop\.ini$)|\.(jpe?g|png|gif|webp|pdf|docx?|md|json)$/i;

export function ImportFilesForm({ importer }: { importer: ChapterImport }) {
  const { text, setText, clips, setClips, recording, setRecording, mode, setMode, progress, busy, stage } =
    importer;

  /**
   * Dropped files, or a folder's, sorted out: the text by its name, the rest as clips (a folder's other
   * files, a cover or notes, are left out by their names).
   */
  const take = (files: File[]) => {
    const textFile = files.find((file) => TEXT_NAME.test(file.name));
    if (textFile) setText(textFile);
    const rest = files.filter((file) => file !== textFile && !JUNK_NAME.test(file.name));
    if (rest.length) {
      setClips(rest);
      setRecording(null);
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    take([...event.dataTransfer.files]);
  };

  return (
    <form
      className="admin-form import-form"
      onSubmit={(event) => void stage(event)}
      onDragOver={(e) => e.preventDefault()}
      onDrop={onDrop}
    >
      <p className="drop-hint">
        Drop the text file and the clips here, or choose them below. The text is a TSV or CSV with the columns
        phrase, dictionary and audio (a clip's file name), or plain blocks separated by blank lines (the
        phrase, then its glossary lines), whose clips go in the order of their names. The project's
        docs/import.md has examples.
      </p>
      <label>
        Text file (TSV, CSV or plain text)
        <input
          type="file"
          accept=".tsv,.csv,.txt,text/*"
          onChange={(e) => setText(e.target.files?.[0] ?? null)}
        />
      </label>
      {text && <p className="chosen">Text: {text.name}</p>}
      <fieldset>
        <legend>Audio</legend>
        <label>
          Clips: a zip, or several files
          <input
            type="file"
            multiple
            accept="audio/*,.zip"
            onChange={(e) => {
              setClips([...(e.target.files ?? [])]);
              setRecording(null);
            }}
          />
        </label>
        <label>
          Or a folder of clips
          <input
            type="file"
            multiple
            ref={(input) => input?.setAttribute('webkitdirectory', '')}
            onChange={(e) => take([...(e.target.files ?? [])])}
          />
        </label>
        <label>
          Or one recording of the whole chapter (aligned to its text)
          <input
            type="file"
            accept="audio/*"
            onChange={(e) => {
              setRecording(e.target.files?.[0] ?? null);
              setClips([]);
            }}
          />
        </label>
        {clips.length > 0 && (
          <p className="chosen">
            {clips.length === 1 ? `Clips: ${clips[0].name}` : `${clips.length} clip files`}
          </p>
        )}
        {recording && <p className="chosen">Recording: {recording.name}</p>}
      </fieldset>
      <label>
        The chapter's current phrases
        <select value={mode} onChange={(e) => setMode(e.target.value as 'append' | 'replace')}>
          <option value="append">Keep them, add these after</option>
          <option value="replace">Replace them with these (learners' saved words from them go too)</option>
        </select>
      </label>
      <UploadProgress percent={progress} />
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Reading the files…' : 'Preview'}
      </button>
    </form>
  );
}
