/**
 * SMIL 3.0 clock values, as EPUB 3 Media Overlays use them in `clipBegin` and `clipEnd`
 * (docs/import.md, "Read-along EPUBs"): full clock `h:mm:ss.fff`, partial clock `mm:ss.fff`, and timecounts
 * `12.5s`, `500ms`, `1.5min`, `2h` or bare seconds (`12.5`). Answers milliseconds, or null for anything
 * else: a value we cannot read is a problem of its phrase, never a guess.
 */
const FULL = /^(\d+):([0-5]\d):([0-5]\d(?:\.\d+)?)$/;
const PARTIAL = /^([0-5]\d):([0-5]\d(?:\.\d+)?)$/;
const COUNT = /^(\d+(?:\.\d+)?|\.\d+)(h|min|s|ms)?$/;
const UNIT_MS: Record<string, number> = { h: 3_600_000, min: 60_000, s: 1000, ms: 1 };

/** A clock value in milliseconds (fractions kept), or null when it is not one. */
export function parseClock(value: string): number | null {
  const text = value.trim();
  let ms: number;
  const full = FULL.exec(text);
  const partial = full ? null : PARTIAL.exec(text);
  const count = full || partial ? null : COUNT.exec(text);
  if (full) ms = (Number(full[1]) * 3600 + Number(full[2]) * 60 + Number(full[3])) * 1000;
  else if (partial) ms = (Number(partial[1]) * 60 + Number(partial[2])) * 1000;
  else if (count) ms = Number(count[1]) * UNIT_MS[count[2] ?? 's'];
  else return null;
  return Number.isFinite(ms) ? ms : null;
}

/** "1:02.500" or "0:07.250": a time as the preview names a clip's range. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const minutes = Math.floor(total / 60_000);
  const seconds = ((total % 60_000) / 1000).toFixed(3).padStart(6, '0');
  return `${minutes}:${seconds}`;
}
