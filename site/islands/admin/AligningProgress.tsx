/**
 * A recording being aligned to its text by a job on the server (docs/import.md, "A long recording is
 * aligned as a job"): its progress, and the time left. The import's id is kept in this browser per chapter,
 * so the author may leave the page and find the import again when coming back.
 */
import { useId } from 'react';
import { UploadProgress } from './ui/UploadProgress';
import type { ImportAligning } from '../../../server/publishing/imports/imports.dto';

const KEY = (chapterId: string) => `lingonovel-import-${chapterId}`;

/** Remembers the chapter's open import (being aligned, or previewed). */
export function keepImport(chapterId: string, importId: string): void {
  try {
    localStorage.setItem(KEY(chapterId), importId);
  } catch {
    // Private modes may refuse storage: the page then simply forgets on leaving.
  }
}

export function keptImport(chapterId: string): string | null {
  try {
    return localStorage.getItem(KEY(chapterId));
  } catch {
    return null;
  }
}

export function forgetImport(chapterId: string): void {
  try {
    localStorage.removeItem(KEY(chapterId));
  } catch {
    // As above.
  }
}

/** "about 2 min" or "about 40 s". */
function timeLeft(seconds: number): string {
  if (seconds <= 0) return 'a few seconds';
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} s`;
  return `about ${Math.round(seconds / 60)} min`;
}

export function AligningProgress(props: {
  aligning: ImportAligning;
  /** The last look failed: the server may be restarting (the job goes on). */
  unreachable: boolean;
  onDiscard: () => void;
}) {
  const { aligning, unreachable, onDiscard } = props;
  const id = useId();
  const { percent, eta_s: eta } = aligning.progress;
  return (
    <section className="aligning" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Aligning the recording to its text</h2>
      <UploadProgress
        percent={percent}
        label="Alignment progress"
        text={`${percent}% · ${timeLeft(eta)} left`}
      />
      {/* Read out in tens, not at every look. */}
      <p role="status" className="visually-hidden">
        Aligning: {Math.floor(percent / 10) * 10}%
      </p>
      {unreachable && (
        <p className="form-alert" role="alert">
          The server cannot be reached just now; the alignment goes on there, and this page keeps looking.
        </p>
      )}
      <p>
        Each sentence is being found in the recording. You may leave this page: the server goes on, and the
        preview opens here when you come back.
      </p>
      <div className="page-actions">
        <button type="button" onClick={onDiscard}>
          Discard
        </button>
      </div>
    </section>
  );
}
