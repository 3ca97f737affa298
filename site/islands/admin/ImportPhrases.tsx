/**
 * /admin/chapter/phrase/import/{chapter_id}: a whole chapter in one step (docs/import.md). The
 * administrator drops or chooses the text and the clips (a zip, many files or a folder) or one recording
 * of the chapter, sees every row before anything is saved, problems marked on their rows, moves a
 * recording's boundaries if needed, then commits or discards.
 */
import { useEffect, useRef, useState, type DragEvent, type SubmitEvent } from 'react';
import { nounCount } from '../../lib/noun-count';
import { api, apiUpload, asApiError, errorMessage } from '../../lib/api';
import { adminRoutes, formatDuration, type Chapter } from '../../lib/admin';
import type {
  ChapterImportResponse as Preview,
  ImportAligning as Aligning,
  ImportCommitAnswer,
  ImportRowResponse,
} from '../../../server/imports/imports.dto';
import { ErrorSummary, SuccessMessage } from '../shared/Form';
import { AdminPage } from './ui/AdminPage';
import { Breadcrumb } from './ui/Breadcrumb';
import { TableScroll } from './ui/Table';
import { UploadProgress } from './ui/UploadProgress';
import { useLoad } from './ui/hooks';
import { WaveformEditor } from './WaveformEditor';
import { AligningProgress, forgetImport, keepImport, keptImport } from './AligningProgress';
import { UnsureNavigator, leastConfident, unsureRows } from './UnsureNavigator';

/**
 * Starts the player. A play interrupted by a pause or another segment (AbortError), or refused by the
 * autoplay rule (NotAllowedError), is the learner's own doing, not a failure: only other errors surface.
 */
function playQuietly(element: HTMLAudioElement): void {
  element.play().catch((error: unknown) => {
    if (error instanceof DOMException && (error.name === 'AbortError' || error.name === 'NotAllowedError'))
      return;
    throw error;
  });
}

const TEXT_NAME = /\.(tsv|csv|txt|text)$/i;
/** What a folder holds beside its clips: system files, images, documents. */
const JUNK_NAME = /^(\.|thumbs\.db$|desktop\.ini$)|\.(jpe?g|png|gif|webp|pdf|docx?|md|json)$/i;
const STEP_MS = 50;
/** How often an import being aligned is looked at again. */
const POLL_MS = 1000;
/** After a failed look (a server restarting, a network blip), the next one waits this long. */
const RETRY_MS = 5000;

/** A recording's boundaries as the page holds them: the text's start, the cuts, the text's end. */
const boundsOf = (preview: Preview): number[] =>
  preview.recording ? [preview.recording.start_ms, ...preview.recording.cuts, preview.recording.end_ms] : [];

/**
 * What went wrong, in the server's words when it has them: a field's message (422), and the messages of
 * a missing ffmpeg (503, with the command to install it), a vanished chapter or import (404) and a commit
 * already running (409), which all say what to do.
 */
function problemMessage(failure: unknown): string {
  const problem = asApiError(failure);
  const field = Object.values(problem.fieldErrors)[0]?.[0];
  if (field) return field;
  return [404, 409, 503].includes(problem.status) ? problem.message : errorMessage(failure);
}

export default function ImportPhrases({ chapterId }: { chapterId: string }) {
  return (
    <AdminPage>
      <Importer chapterId={chapterId} />
    </AdminPage>
  );
}

function Importer({ chapterId }: { chapterId: string }) {
  const [chapter] = useLoad<Chapter>(`admin/chapter/${encodeURIComponent(chapterId)}`);
  const [text, setText] = useState<File | null>(null);
  const [clips, setClips] = useState<File[]>([]);
  const [recording, setRecording] = useState<File | null>(null);
  const [mode, setMode] = useState<'append' | 'replace'>('append');
  const [progress, setProgress] = useState<number | null>(null);
  const [preview, setPreviewState] = useState<Preview | null>(null);
  const [aligning, setAligning] = useState<Aligning | null>(null);
  const [bounds, setBounds] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  /** The reader page of the chapter just committed. */
  const [readerUrl, setReaderUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  // Saves run one after another, so that the last move is the one kept.
  const saving = useRef<Promise<void>>(Promise.resolve());

  /** The import the page shows: an answer about any other (one discarded meanwhile) is dropped. */
  const currentId = useRef<string | null>(null);

  /** Shows a look at an import: its preview, or its alignment's progress (then looked at again). */
  const show = (answer: Preview | Aligning) => {
    currentId.current = answer.import_id;
    keepImport(chapterId, answer.import_id);
    if (answer.status === 'aligning') {
      setPreviewState(null);
      setAligning(answer);
      return;
    }
    setAligning(null);
    setPreviewState(answer);
    setBounds(boundsOf(answer));
  };
  const setPreview = (next: Preview | null) => {
    if (!next) {
      currentId.current = null;
      forgetImport(chapterId);
    }
    setPreviewState(next);
  };

  // An import left open (being aligned, or previewed) is shown again when the page is opened again.
  useEffect(() => {
    const id = keptImport(chapterId);
    if (!id) return;
    api<{ data: Preview | Aligning }>(`admin/import/${encodeURIComponent(id)}`).then(
      (answer) => show(answer.data),
      // Gone (committed, discarded, expired): forgotten. Any other failure may pass: kept for next time.
      (failure: unknown) => asApiError(failure).status === 404 && forgetImport(chapterId),
    );
  }, [chapterId]);

  // While aligning, the import is looked at every second until its preview is ready. A failed look (the
  // server restarting, which the job survives) is tried again later; only a 404 ends the wait.
  const [lookFailed, setLookFailed] = useState(false);
  useEffect(() => {
    if (!aligning) return;
    const id = aligning.import_id;
    const timer = setTimeout(
      () => {
        api<{ data: Preview | Aligning }>(`admin/import/${id}`).then(
          (answer) => {
            if (currentId.current !== id) return;
            setLookFailed(false);
            show(answer.data);
          },
          (failure: unknown) => {
            if (currentId.current !== id) return;
            if (asApiError(failure).status === 404) {
              currentId.current = null;
              setAligning(null);
              forgetImport(chapterId);
              setError(problemMessage(failure));
              return;
            }
            setLookFailed(true);
            setAligning({ ...aligning });
          },
        );
      },
      lookFailed ? RETRY_MS : POLL_MS,
    );
    return () => clearTimeout(timer);
  }, [aligning]);

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

  async function stage(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setDone(null);
    setReaderUrl(null);
    if (!text) return setError('Choose the text file of the chapter.');
    const body = new FormData();
    body.set('text', text);
    if (recording) body.set('recording', recording);
    else for (const clip of clips) body.append('clips', clip, clip.name);
    body.set('mode', mode);
    setBusy(true);
    try {
      const answer = await apiUpload<{ data: Preview | Aligning }>(
        `admin/chapter/${chapterId}/import`,
        body,
        {
          onProgress: setProgress,
        },
      );
      show(answer.data);
    } catch (failure) {
      setError(problemMessage(failure));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  /**
   * Saves the boundaries through the boundaries API: the Save button's, or a handle moved on the waveform.
   * A refused list (422) leaves the last saved one in place.
   */
  function saveBoundaries(next: number[] = bounds) {
    if (!preview) return;
    const id = preview.import_id;
    saving.current = saving.current.then(async () => {
      setBusy(true);
      setSaved(null);
      try {
        const answer = await api<{ data: Preview }>(`admin/import/${id}/boundaries`, {
          method: 'PUT',
          body: { cuts: next.slice(1, -1), start_ms: next[0], end_ms: next[next.length - 1] },
        });
        setPreview(answer.data);
        setBounds(boundsOf(answer.data));
        setError(null);
        setSaved('The boundaries have been saved.');
      } catch (failure) {
        setError(problemMessage(failure));
        setBounds((current) => (current === next ? boundsOf(preview) : current));
      } finally {
        setBusy(false);
      }
    });
  }

  /** An import that expired or was committed elsewhere (404) is gone: the preview closes with the reason. */
  const gone = (failure: unknown) => {
    if (asApiError(failure).status !== 404) return false;
    setPreview(null);
    setDone(null);
    setError(problemMessage(failure));
    return true;
  };

  async function commit(confirm: boolean) {
    if (!preview) return;
    setBusy(true);
    setError(null);
    try {
      await saving.current;
      const answer = await api<ImportCommitAnswer>(`admin/import/${preview.import_id}/commit`, {
        method: 'POST',
        ...(confirm && { body: { confirm: true } }),
      });
      setPreview(null);
      const { book_code: code, chapter_no: number } = answer.data;
      setReaderUrl(number ? `/read/${encodeURIComponent(code)}/${number}` : null);
      // The files are imported: choosing them again is a new import, not a second click.
      setText(null);
      setClips([]);
      setRecording(null);
      setMode('append');
      setDone(answer.message);
    } catch (failure) {
      if (!gone(failure)) setError(problemMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  async function discard() {
    const id = preview?.import_id ?? aligning?.import_id;
    if (!id) return;
    setError(null);
    try {
      await api(`admin/import/${id}`, { method: 'DELETE' });
      currentId.current = null;
      setAligning(null);
      setPreview(null);
      setDone('The import has been discarded. Nothing was added.');
    } catch (failure) {
      if (!gone(failure)) setError(problemMessage(failure));
    }
  }

  const title =
    chapter.status === 'ready' ? `${chapter.data.book_title}, chapter ${chapter.data.chapter_no}` : '';
  const movedBoundaries = preview?.recording && boundsOf(preview).some((bound, i) => bound !== bounds[i]);
  return (
    <>
      <Breadcrumb
        items={[
          { label: 'Books', href: adminRoutes.books },
          { label: 'Phrase List', href: adminRoutes.phrases(chapterId) },
          { label: 'Import phrases' },
        ]}
      />
      <h1>Import phrases</h1>
      {title && <p className="lead">{title}</p>}
      <ErrorSummary message={error} />
      <SuccessMessage focus>
        {done && (
          <>
            {done} {readerUrl && <a href={readerUrl}>Open in the reader</a>}
            {readerUrl && ' · '}
            <a href={adminRoutes.phrases(chapterId)}>Back to the Phrase List</a>
          </>
        )}
      </SuccessMessage>
      {aligning && (
        <AligningProgress aligning={aligning} unreachable={lookFailed} onDiscard={() => void discard()} />
      )}
      {!preview && !aligning && (
        <form
          className="admin-form import-form"
          onSubmit={(event) => void stage(event)}
          onDragOver={(e) => e.preventDefault()}
          onDrop={onDrop}
        >
          <p className="drop-hint">
            Drop the text file and the clips here, or choose them below. The text is a TSV or CSV with the
            columns phrase, dictionary and audio (a clip's file name), or plain blocks separated by blank
            lines (the phrase, then its glossary lines), whose clips go in the order of their names. The
            project's docs/import.md has examples.
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
              <option value="replace">
                Replace them with these (learners' saved words from them go too)
              </option>
            </select>
          </label>
          <UploadProgress percent={progress} />
          <button type="submit" className="button" disabled={busy}>
            {busy ? 'Reading the files…' : 'Preview'}
          </button>
        </form>
      )}
      {preview && (
        <PreviewTable
          preview={preview}
          bounds={bounds}
          onBounds={setBounds}
          busy={busy}
          moved={!!movedBoundaries}
          saved={saved}
          onSaveBoundaries={(next) => saveBoundaries(next)}
          onCommit={(confirm) => void commit(confirm)}
          onDiscard={() => void discard()}
        />
      )}
    </>
  );
}

function PreviewTable(props: {
  preview: Preview;
  bounds: number[];
  onBounds: (bounds: number[]) => void;
  busy: boolean;
  moved: boolean;
  saved: string | null;
  onSaveBoundaries: (bounds?: number[]) => void;
  onCommit: (confirm: boolean) => void;
  onDiscard: () => void;
}) {
  const { preview, bounds, onBounds, busy, moved } = props;
  const audio = useRef<HTMLAudioElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that had the focus is gone: the preview takes it, once.
  useEffect(() => heading.current?.focus(), []);
  const stopAt = useRef<number | null>(null);
  const recording = preview.recording;
  // The warning that the recording may be of another text is not a problem to fix: the author confirms.
  const mismatch = recording?.mismatch ?? null;
  const [confirmed, setConfirmed] = useState(false);
  const problems = preview.errors.filter((message) => message !== mismatch).length;
  const unsure = unsureRows(preview);
  // The preview opens at the least confident segment.
  const [current, setCurrent] = useState<number | null>(() => leastConfident(preview));

  /** Plays part of the recording (a segment), on the player the waveform shares. */
  const playRange = (startMs: number, endMs: number) => {
    const element = audio.current;
    if (!element || !recording) return;
    // The waveform gave the player its source; without the waveform, the first play does.
    if (!element.getAttribute('src')) element.src = recording.url;
    element.currentTime = startMs / 1000;
    stopAt.current = endMs / 1000;
    playQuietly(element);
  };
  const play = (row: ImportRowResponse, i: number) => {
    const element = audio.current;
    if (!element) return;
    if (recording) return playRange(bounds[i], bounds[i + 1]);
    if (row.audio) {
      element.src = row.audio;
      stopAt.current = null;
    }
    playQuietly(element);
  };
  const setBound = (i: number, ms: number) =>
    onBounds(bounds.map((bound, j) => (j === i ? Math.round(ms) : bound)));

  return (
    <section aria-labelledby="preview-heading">
      <h2 id="preview-heading" tabIndex={-1} ref={heading}>
        Preview: {nounCount(preview.rows.length, 'phrase')}
      </h2>
      {preview.notice && <p className="form-alert">{preview.notice}</p>}
      {mismatch && (
        <div className="form-alert" role="alert">
          <p>{mismatch}</p>
          <label className="checkbox">
            <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />I
            have listened: this is the chapter's recording
          </label>
        </div>
      )}
      {problems > 0 ? (
        <div className="form-alert" role="alert">
          <p>
            {problems === 1 ? 'One problem' : `${problems} problems`} to fix before these phrases can be
            added:
          </p>
          <ul>
            {preview.errors
              .filter((message) => message !== mismatch)
              .map((message) => (
                <li key={message}>{message}</li>
              ))}
          </ul>
        </div>
      ) : (
        !mismatch && (
          <p role="status">
            {unsure.length
              ? `Every row can be added; ${unsure.length === 1 ? 'one is' : `${unsure.length} are`} unsure: listen to ${unsure.length === 1 ? 'it' : 'them'} first.`
              : 'Every row is ready.'}
          </p>
        )
      )}
      <audio
        ref={audio}
        data-import-audio
        preload="none"
        onTimeUpdate={(e) => {
          if (stopAt.current !== null && e.currentTarget.currentTime >= stopAt.current)
            e.currentTarget.pause();
        }}
      />
      {recording && (
        <>
          <WaveformEditor
            importId={preview.import_id}
            url={recording.url}
            durationMs={recording.duration_ms}
            bounds={bounds}
            texts={preview.rows.map((row) => row.phrase)}
            confidence={preview.rows.map((row) => row.confidence)}
            unsureBelow={recording.unsure_below}
            current={current}
            media={audio}
            onMove={onBounds}
            onSave={props.onSaveBoundaries}
            onPlay={playRange}
          />
          <UnsureNavigator
            preview={preview}
            unsure={unsure}
            current={current}
            onCurrent={setCurrent}
            onPlay={(i) => playRange(bounds[i], bounds[i + 1])}
          />
        </>
      )}
      <p role="status" className="visually-hidden">
        {props.saved}
      </p>
      <TableScroll label="Rows to import">
        <table className="import-preview">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Phrase</th>
              <th scope="col">Glossary</th>
              <th scope="col">{recording ? 'Segment' : 'Clip'}</th>
              <th scope="col">Length</th>
              <th scope="col">Listen</th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row, i) => (
              <tr
                key={row.n}
                className={
                  [row.error && 'has-error', recording && i === current && 'is-current']
                    .filter(Boolean)
                    .join(' ') || undefined
                }
              >
                <th scope="row">{row.n}</th>
                <td>
                  {row.phrase || <em>(empty)</em>}
                  {row.error && <p className="field-error">{row.error}</p>}
                </td>
                <td className="import-glossary">{row.dictionary}</td>
                <td>
                  {recording ? (
                    <Segment
                      index={i}
                      start={bounds[i]}
                      end={bounds[i + 1]}
                      onStart={(ms) => setBound(i, ms)}
                      onEnd={i === preview.rows.length - 1 ? (ms) => setBound(i + 1, ms) : undefined}
                    />
                  ) : (
                    (row.clip ?? '—')
                  )}
                </td>
                <td>{row.duration_ms != null ? formatDuration(row.duration_ms) : '—'}</td>
                <td>
                  {(recording || row.audio) && !row.error ? (
                    <button type="button" onClick={() => play(row, i)} aria-label={`Play row ${row.n}`}>
                      Play
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <div className="page-actions">
        {recording && (
          <button type="button" onClick={() => props.onSaveBoundaries()} disabled={busy || !moved}>
            Save the boundaries
          </button>
        )}
        <button
          type="button"
          className="button"
          onClick={() => props.onCommit(confirmed)}
          disabled={busy || problems > 0 || moved || (!!mismatch && !confirmed)}
        >
          Add {preview.rows.length} {preview.rows.length === 1 ? 'phrase' : 'phrases'}
          {preview.mode === 'replace' ? ' in place of the current ones' : ''}
        </button>
        <button type="button" onClick={props.onDiscard} disabled={busy}>
          Discard
        </button>
      </div>
    </section>
  );
}

/**
 * A segment's start (and, on the last row, its end), movable in 50 ms steps or by typing a time in seconds
 * (applied on Enter or leaving).
 */
function Segment(props: {
  index: number;
  start: number;
  end: number;
  onStart: (ms: number) => void;
  onEnd?: (ms: number) => void;
}) {
  const { index, start, end, onStart, onEnd } = props;
  return (
    <span className="segment">
      <TimeField label={`Start of segment ${index + 1}`} ms={start} onMs={onStart} /> –{' '}
      {onEnd ? <TimeField label="End of the text" ms={end} onMs={onEnd} /> : `${(end / 1000).toFixed(3)} s`}
    </span>
  );
}

/** A time, stepped by 50 ms or typed in seconds; a cleared or unreadable entry goes back to what it was. */
function TimeField({ label, ms, onMs }: { label: string; ms: number; onMs: (ms: number) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const apply = () => {
    const seconds = Number(draft?.replace(',', '.'));
    if (draft !== null && draft.trim() !== '' && Number.isFinite(seconds)) onMs(seconds * 1000);
    setDraft(null);
  };
  const lower = label.charAt(0).toLowerCase() + label.slice(1);
  return (
    <>
      <button type="button" aria-label={`Move the ${lower} 50 ms earlier`} onClick={() => onMs(ms - STEP_MS)}>
        −50 ms
      </button>
      <input
        type="text"
        inputMode="decimal"
        aria-label={`${label}, in seconds`}
        value={draft ?? (ms / 1000).toFixed(3)}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            apply();
          } else if (e.key === 'Escape') setDraft(null);
        }}
      />
      <button type="button" aria-label={`Move the ${lower} 50 ms later`} onClick={() => onMs(ms + STEP_MS)}>
        +50 ms
      </button>
    </>
  );
}
