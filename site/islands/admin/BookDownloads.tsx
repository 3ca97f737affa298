/**
 * "Take it with you" on the admin book page (docs/formats.md, Downloads): an administrator gets the whole
 * book as a read-along EPUB or an audiobook (M4B), saved by the browser from a signed link
 * (lib/take-away.ts), and each chapter's subtitles from the chapter table.
 *
 * While one download is prepared, the buttons keep their place in the tab order (aria-disabled, not
 * disabled, which would drop the keyboard's focus) and a click does nothing. The click that starts the
 * audiobook's build also saves it once it is ready, with a progress bar meanwhile (as the book page:
 * lib/take-away-element.ts); the wait stops when the page is left.
 */
import { useEffect, useRef, useState } from 'react';
import { apiDownload } from '../../lib/api';
import {
  cancelled,
  STARTED,
  takeAway,
  takeAwayError,
  waitProgress,
  type TakeAwayFormat,
  type WaitProgress,
} from '../../lib/take-away';

const LABEL: Record<TakeAwayFormat, string> = {
  epub: 'Download the read-along EPUB',
  audiobook: 'Download the audiobook (M4B)',
};

const PREPARING: Record<TakeAwayFormat, string> = {
  epub: 'Preparing the EPUB…',
  audiobook: 'Preparing the audiobook…',
};

export function BookDownloads({ bookCode }: { bookCode: string }) {
  const [busy, setBusy] = useState<TakeAwayFormat | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [progress, setProgress] = useState<WaitProgress | null>(null);
  // The state of this render may be stale for a second click in the same frame; the ref is not.
  const working = useRef(false);
  const abort = useRef<AbortController | null>(null);
  /** The wait being shown: when it began, the longest estimate heard. */
  const wait = useRef<{ started: number; estimate: number } | null>(null);

  useEffect(() => {
    const stop = () => abort.current?.abort();
    addEventListener('pagehide', stop);
    return () => {
      removeEventListener('pagehide', stop);
      stop();
    };
  }, []);
  // The bar's clock, while there is a wait.
  const waiting = progress !== null;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (wait.current) setProgress(waitProgress(wait.current.started, wait.current.estimate, Date.now()));
    }, 1000);
    return () => clearInterval(timer);
  }, [waiting]);

  const download = async (format: TakeAwayFormat) => {
    if (working.current) return;
    working.current = true;
    const controller = (abort.current = new AbortController());
    setBusy(format);
    setMessage({ text: PREPARING[format], error: false });
    try {
      await takeAway(bookCode, format, {
        signal: controller.signal,
        onWait: (text, seconds) => {
          setMessage({ text, error: false });
          // The estimate only grows, so the bar never goes back.
          const now = (wait.current ??= { started: Date.now(), estimate: seconds });
          now.estimate = Math.max(now.estimate, seconds);
          setProgress(waitProgress(now.started, now.estimate, Date.now()));
        },
      });
      setMessage({ text: STARTED, error: false });
    } catch (failure) {
      setMessage(cancelled(controller.signal) ? null : { text: takeAwayError(failure), error: true });
    } finally {
      working.current = false;
      wait.current = null;
      setProgress(null);
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="take-away-heading">
      <h2 id="take-away-heading">Take it with you</h2>
      <p>
        The read-along EPUB highlights each phrase as it is read aloud in reading apps such as Thorium, Apple
        Books and Readest; the audiobook plays in any audiobook app, with a mark at each chapter. Each
        chapter&rsquo;s subtitles (WebVTT, LRC) are in the chapter table below.
      </p>
      <ul className="row-actions">
        {(['epub', 'audiobook'] as const).map((format) => (
          <li key={format}>
            <button
              type="button"
              className="button"
              onClick={() => void download(format)}
              aria-disabled={busy !== null || undefined}
              aria-busy={busy === format || undefined}
            >
              {LABEL[format]}
            </button>
          </li>
        ))}
      </ul>
      <p role="status" className={message?.error ? 'field-error' : undefined}>
        {message?.text}
      </p>
      {progress && (
        <p>
          <label htmlFor="take-away-progress">Making the audiobook</label>{' '}
          <progress id="take-away-progress" max={1} value={progress.fraction ?? undefined} />{' '}
          <span>{progress.text}</span>
        </p>
      )}
    </section>
  );
}

/** A chapter's subtitles, as files: fetched with the token (a locked chapter's need it), then saved. */
export function SubtitleLinks({ bookCode, chapterNo }: { bookCode: string; chapterNo: number }) {
  const [error, setError] = useState<string | null>(null);
  const save = (kind: 'vtt' | 'lrc') => {
    setError(null);
    apiDownload(
      `downloads/${encodeURIComponent(bookCode)}/chapter/${chapterNo}/subtitles.${kind}`,
      `${bookCode}-chapter-${chapterNo}.${kind}`,
    ).catch((failure: unknown) => setError(takeAwayError(failure)));
  };
  return (
    <>
      {(['vtt', 'lrc'] as const).map((kind) => (
        <li key={kind}>
          <button type="button" className="link-button" onClick={() => save(kind)}>
            {kind === 'vtt' ? 'WebVTT' : 'LRC'}
            <span className="visually-hidden"> subtitles of chapter {chapterNo}</span>
          </button>
        </li>
      ))}
      {error && (
        <li>
          <span role="alert" className="field-error">
            {error}
          </span>
        </li>
      )}
    </>
  );
}
