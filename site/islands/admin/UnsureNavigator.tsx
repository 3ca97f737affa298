/**
 * The segments of an aligned recording the aligner is unsure of (docs/alignment.md): the one looked at,
 * with its phrase and confidence, and "Previous unsure" and "Next unsure" (the keys P and N) to go through
 * them. A few unsure rows never block the commit: this is where the author listens to them.
 */
import { useEffect } from 'react';
import type { ChapterImportResponse as Preview } from '../../../server/publishing/imports/imports.dto';

/** The rows under the line, in their order. */
export function unsureRows(preview: Preview): number[] {
  const line = preview.recording?.unsure_below;
  if (line == null) return [];
  return preview.rows.flatMap((row, i) => (row.confidence !== undefined && row.confidence < line ? [i] : []));
}

/** The row the aligner is least sure of, or null when it gave no confidences. */
export function leastConfident(preview: Preview): number | null {
  let least: number | null = null;
  preview.rows.forEach((row, i) => {
    if (row.confidence === undefined) return;
    if (least === null || row.confidence < preview.rows[least].confidence!) least = i;
  });
  return least;
}

/** A key typed into a field is the field's. */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.role === 'slider');

export function UnsureNavigator(props: {
  preview: Preview;
  unsure: number[];
  current: number | null;
  onCurrent: (row: number) => void;
  onPlay: (row: number) => void;
}) {
  const { preview, unsure, current, onCurrent, onPlay } = props;
  const previous = current === null ? unsure.at(-1) : unsure.filter((row) => row < current).at(-1);
  const next = current === null ? unsure[0] : unsure.find((row) => row > current);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
      const to =
        event.key === 'n' || event.key === 'N'
          ? next
          : event.key === 'p' || event.key === 'P'
            ? previous
            : undefined;
      if (to === undefined) return;
      event.preventDefault();
      onCurrent(to);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [next, previous, onCurrent]);

  if (current === null) return null;
  const row = preview.rows[current];
  const line = preview.recording?.unsure_below ?? null;
  const isUnsure = line !== null && row.confidence !== undefined && row.confidence < line;
  const place = unsure.indexOf(current);
  return (
    <section className="unsure-navigator" aria-label="Segment looked at">
      <p aria-live="polite">
        <strong>Segment {row.n}</strong>
        {row.confidence !== undefined && (
          <>
            {' '}
            · {isUnsure ? 'unsure' : 'sure'} ({Math.round(row.confidence * 100)}%)
          </>
        )}
        {isUnsure && unsure.length > 1 && ` · ${place + 1} of ${unsure.length} unsure`}
        {!unsure.length && ' · no segment is unsure'}
      </p>
      <p className="unsure-text">{row.phrase}</p>
      <div className="unsure-actions">
        <button type="button" onClick={() => onPlay(current)}>
          Play segment {row.n}
        </button>
        <button
          type="button"
          aria-keyshortcuts="P"
          disabled={previous === undefined}
          onClick={() => previous !== undefined && onCurrent(previous)}
        >
          Previous unsure
        </button>
        <button
          type="button"
          aria-keyshortcuts="N"
          disabled={next === undefined}
          onClick={() => next !== undefined && onCurrent(next)}
        >
          Next unsure
        </button>
      </div>
    </section>
  );
}
