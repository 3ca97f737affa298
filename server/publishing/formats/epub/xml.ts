/**
 * Text and attribute values for the EPUB's XML files. Characters XML 1.0 forbids (control characters, lone
 * surrogates) are dropped: a phrase typed or imported with one would otherwise make the whole file
 * unreadable to a reading system.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** `value` without the characters XML cannot hold (what `esc` drops), for deciding whether a text is empty. */
export function xmlText(value: string): string {
  return value.replace(NOT_XML, '');
}

export function esc(value: string): string {
  return xmlText(value).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** A SMIL clock value in seconds from whole microseconds, exact (no float): 1234567 → "1.234567". */
export function seconds(us: number): string {
  const whole = Math.round(us);
  return `${Math.floor(whole / 1e6)}.${String(whole % 1e6).padStart(6, '0')}`;
}

/** A SMIL full clock value (`h:mm:ss.ffffff`), as `media:duration` takes it. */
export function clock(us: number): string {
  const whole = Math.round(us);
  const totalSeconds = Math.floor(whole / 1e6);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${h}:${pad(m)}:${pad(s)}.${String(whole % 1e6).padStart(6, '0')}`;
}

/** `2026-11-27T13:43:18Z`: the only form EPUB allows for `dcterms:modified`. */
export function modifiedStamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
