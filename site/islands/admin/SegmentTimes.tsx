/**
 * The times of a recording's segments in the import preview's table: a boundary moved by steps or to an
 * exact time, the other way to move it beside the waveform's handles (WaveformEditor.tsx).
 */
import { useState } from 'react';

const STEP_MS = 50;

/**
 * A segment's start (and, on the last row, its end), movable in 50 ms steps or by typing a time in seconds
 * (applied on Enter or leaving).
 */
export function SegmentTimes(props: {
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
