/**
 * What the waveform editor's regions look like and where they may go (WaveformEditor.tsx): the segments'
 * colours and labels, the handles' sliders, and the limits of a boundary. Plain DOM: wavesurfer's regions
 * take elements as their content and live in its shadow tree, out of React's reach.
 */

/** The shortest segment the server takes (silence-split.ts); a handle stops this close to its neighbours. */
const MIN_SEGMENT_MS = 50;

const SEGMENT_COLORS = [
  'color-mix(in srgb, var(--brand) 10%, transparent)',
  'color-mix(in srgb, var(--brand) 22%, transparent)',
];
/** An unsure segment, and the one the author is looking at. */
const UNSURE_COLOR = 'color-mix(in srgb, var(--focus) 25%, transparent)';
const CURRENT_COLOR = 'color-mix(in srgb, var(--focus) 45%, transparent)';
/** What lies before and after the text: left out of the clips. */
export const OUTSIDE_COLOR = 'color-mix(in srgb, var(--muted) 30%, transparent)';
/** The handles and cursor: the design system's tokens (docs/design.md); CSS values in the shadow tree. */
export const HANDLE_COLOR = 'var(--brand-dark)';

export const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

/** A segment's colour: the one looked at, an unsure one, or the alternating plain ones. */
export function segmentColor(
  index: number,
  {
    confidence,
    unsureBelow,
    current,
  }: { confidence: Array<number | undefined>; unsureBelow: number | null; current: number | null },
): string {
  if (index === current) return CURRENT_COLOR;
  const sure = confidence[index];
  if (unsureBelow !== null && sure !== undefined && sure < unsureBelow) return UNSURE_COLOR;
  return SEGMENT_COLORS[index % 2];
}

/**
 * A handle's slider, for the keyboard and assistive technology; the grip a pointer drags. Inside a
 * wrapper, the region's content, which centres it on the boundary.
 */
export function handleSlider(index: number, last: number, durationMs: number): HTMLElement {
  const wrapper = document.createElement('div');
  Object.assign(wrapper.style, { position: 'relative', left: '-13px', top: '0' });
  const slider = document.createElement('div');
  slider.setAttribute('part', 'cut-handle');
  slider.setAttribute('role', 'slider');
  slider.tabIndex = 0;
  const edge = index === 0 ? 'Start of the text' : index === last ? 'End of the text' : null;
  slider.setAttribute('aria-label', edge ?? `Start of segment ${index + 1}`);
  slider.setAttribute('aria-valuemin', '0');
  slider.setAttribute('aria-valuemax', String(durationMs));
  slider.textContent = index === 0 ? '[' : index === last ? ']' : String(index + 1);
  Object.assign(slider.style, {
    width: '24px',
    height: '24px',
    borderRadius: '12px',
    background: HANDLE_COLOR,
    color: 'var(--surface)',
    font: '600 12px/24px system-ui, sans-serif',
    textAlign: 'center',
    cursor: 'ew-resize',
    userSelect: 'none',
    touchAction: 'none',
  });
  wrapper.append(slider);
  return slider;
}

/** A segment's number and phrase, cut short to the segment's width. */
export function segmentLabel(index: number, text: string | undefined): HTMLElement {
  const label = document.createElement('span');
  label.textContent = `${index + 1} ${text ?? ''}`;
  label.setAttribute('aria-hidden', 'true');
  label.className = 'waveform-segment-label';
  Object.assign(label.style, {
    position: 'absolute',
    bottom: '2px',
    left: '4px',
    right: '4px',
    overflow: 'hidden',
    whiteSpace: 'nowrap',
    textOverflow: 'ellipsis',
    font: '12px system-ui, sans-serif',
    color: 'var(--ink)',
  });
  return label;
}

export function outsideLabel(): HTMLElement {
  const label = segmentLabel(-1, undefined);
  label.textContent = 'not in the text';
  label.style.color = 'var(--muted)';
  return label;
}

/** Where a boundary may go: inside the recording, at least 50 ms from the boundaries beside it. */
export function clampBound(index: number, ms: number, now: number[], durationMs: number): number {
  const low = index > 0 ? now[index - 1] + MIN_SEGMENT_MS : 0;
  const high = index < now.length - 1 ? now[index + 1] - MIN_SEGMENT_MS : durationMs;
  return Math.min(high, Math.max(low, ms));
}
