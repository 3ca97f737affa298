/**
 * The import's preview (docs/import.md): every row before anything is saved, problems marked on their
 * rows, a clip or a recording's segment to hear per row, and for a recording its waveform, the unsure
 * segments to go through and each segment's times to type; then Add, or Discard.
 */
import { useEffect, useRef, useState } from 'react';
import { nounCount } from '../../lib/noun-count';
import { formatDuration } from '../../lib/admin';
import type {
  ChapterImportResponse as Preview,
  ImportRowResponse,
} from '../../../server/publishing/imports/imports.dto';
import { TableScroll } from './ui/Table';
import { WaveformEditor } from './WaveformEditor';
import { UnsureNavigator, leastConfident, unsureRows } from './UnsureNavigator';
import { SegmentTimes } from './SegmentTimes';

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

export function ImportPreview(props: {
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
                    <SegmentTimes
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
