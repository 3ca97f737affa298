/**
 * The import page's state and its calls to the imports API (docs/import.md): the files chosen, their
 * upload, an alignment looked at until its preview is ready, the boundaries saved, and the commit or the
 * discard. The import's id is kept in this browser (AligningProgress.tsx), so an import left open is shown
 * again when the page is opened again.
 */
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { api, apiUpload, asApiError, errorMessage } from '../../lib/api';
import type { Chapter } from '../../lib/admin';
import type {
  ChapterImportResponse as Preview,
  ImportAligning as Aligning,
  ImportCommitAnswer,
} from '../../../server/publishing/imports/imports.dto';
import { useLoad } from './ui/hooks';
import { forgetImport, keepImport, keptImport } from './AligningProgress';

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

export function useChapterImport(chapterId: string) {
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

  /** The recording's boundaries, moved on the page and not saved yet: the commit waits for them. */
  const moved = !!(preview?.recording && boundsOf(preview).some((bound, i) => bound !== bounds[i]));
  return {
    chapter,
    text,
    setText,
    clips,
    setClips,
    recording,
    setRecording,
    mode,
    setMode,
    progress,
    preview,
    aligning,
    lookFailed,
    bounds,
    setBounds,
    moved,
    error,
    done,
    readerUrl,
    busy,
    saved,
    stage,
    saveBoundaries,
    commit,
    discard,
  };
}

/** The import page's state and actions, as the steps' components take them. */
export type ChapterImport = ReturnType<typeof useChapterImport>;
