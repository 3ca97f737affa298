/**
 * "Take it with you" on the admin book page (docs/formats.md, Downloads): an administrator gets the whole
 * book as a read-along EPUB or an audiobook (M4B), saved by the browser from a signed link
 * (lib/take-away.ts), and each chapter's subtitles from the chapter table.
 */
import { useEffect, useRef, useState } from 'react';
import { apiDownload } from '../../lib/api';
import { takeAway, takeAwayError, waitingMessage, type TakeAwayFormat } from '../../lib/take-away';

const LABEL: Record<TakeAwayFormat, string> = {
  epub: 'Download the read-along EPUB',
  audiobook: 'Download the audiobook (M4B)',
};

export function BookDownloads({ bookCode }: { bookCode: string }) {
  const [busy, setBusy] = useState<TakeAwayFormat | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const download = async (format: TakeAwayFormat) => {
    abort.current = new AbortController();
    setBusy(format);
    setMessage({
      text: format === 'audiobook' ? 'Preparing the audiobook…' : 'Preparing the EPUB…',
      error: false,
    });
    try {
      await takeAway(bookCode, format, {
        signal: abort.current.signal,
        onWait: (seconds) => setMessage({ text: waitingMessage(seconds), error: false }),
      });
      setMessage({ text: 'Your download has started.', error: false });
    } catch (failure) {
      if (!abort.current.signal.aborted) setMessage({ text: takeAwayError(failure), error: true });
    } finally {
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
              disabled={busy !== null}
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
