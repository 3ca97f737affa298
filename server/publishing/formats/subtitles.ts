/** One phrase on screen: from `startUs` to `endUs` of its chapter. */
export interface Cue {
  startUs: number;
  endUs: number;
  text: string;
}

/**
 * Cues back to back: each phrase starts where the previous one's decoded clip ended. Times stay in
 * microseconds until written, so rounding never accumulates over a long chapter.
 */
export function cuesOf(texts: readonly string[], lengthsUs: readonly number[]): Cue[] {
  if (texts.length !== lengthsUs.length) {
    throw new Error(`${texts.length} phrases but ${lengthsUs.length} clip lengths`);
  }
  const cues: Cue[] = [];
  let at = 0;
  for (const [i, text] of texts.entries()) {
    const endUs = at + Math.max(0, lengthsUs[i]);
    cues.push({ startUs: at, endUs, text });
    at = endUs;
  }
  return cues;
}

/** A phrase's lines, without blank ones: in WebVTT a blank line ends the cue; LRC has one line per cue. */
function linesOf(text: string): string[] {
  if (!/[\r\n]/.test(text)) {
    const line = text.trim();
    return line ? [line] : [];
  }
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** `HH:MM:SS.mmm` (hours may have more digits), rounded to the nearest millisecond. */
export function vttTime(us: number): string {
  const ms = Math.round(us / 1000);
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const seconds = Math.floor(ms / 1000) % 60;
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(ms % 1000, 3)}`;
}

/** `&`, `<` and `>` escaped, so a cue's text is never markup and never holds `-->`. */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const escapeVtt = (line: string) => line.replace(/[&<>]/g, (char) => ESCAPES[char]);

/** WebVTT (one cue per phrase, numbered from 1). */
export function toVtt(cues: readonly Cue[]): string {
  const parts = ['WEBVTT\n'];
  for (const [i, cue] of cues.entries()) {
    const text = linesOf(cue.text).map(escapeVtt).join('\n');
    // A cue shorter than half a millisecond would round to end = start, which players may drop.
    const endUs = Math.max(cue.endUs, Math.round(cue.startUs / 1000) * 1000 + 1000);
    parts.push(`\n${i + 1}\n${vttTime(cue.startUs)} --> ${vttTime(endUs)}\n${text}${text ? '\n' : ''}`);
  }
  return parts.join('');
}

/** `[mm:ss.xx]`, rounded to the nearest centisecond; minutes go past 99 on a long chapter. */
export function lrcTime(us: number): string {
  const cs = Math.round(us / 10_000);
  const minutes = Math.floor(cs / 6000);
  const seconds = Math.floor(cs / 100) % 60;
  return `[${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(cs % 100, 2)}]`;
}

/** A tag's value on one line: a line break or `]` would end it early, a `[` start another tag. */
const tagValue = (value: string) => linesOf(value).join(' ').replace(/\[/g, '(').replace(/]/g, ')');

/** A timed line's text: one starting with `[01:02.00]` or `[ar:…]` would be read as a time or a tag. */
const lineText = (text: string) =>
  linesOf(text)
    .join(' ')
    .replace(/^\[([^\]]*)]?/, '($1)');

/**
 * LRC (one timed line per phrase, centiseconds), with its title, artist and language tags when known, and
 * a last empty timed line where the last phrase ends, so players stop showing it.
 */
export function toLrc(
  cues: readonly Cue[],
  tags: { title: string; artist: string; language: string | null },
): string {
  const lines: string[] = [];
  const tag = (name: string, value: string | null) => {
    const clean = value === null ? '' : tagValue(value);
    if (clean) lines.push(`[${name}:${clean}]`);
  };
  tag('ti', tags.title);
  tag('ar', tags.artist);
  tag('la', tags.language);
  for (const cue of cues) lines.push(`${lrcTime(cue.startUs)}${lineText(cue.text)}`);
  if (cues.length > 0) lines.push(lrcTime(cues[cues.length - 1].endUs));
  return `${lines.join('\n')}\n`;
}
