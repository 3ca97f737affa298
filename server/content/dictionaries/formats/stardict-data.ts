import { htmlToText, plainText } from './safe-text';

/**
 * A StarDict entry's fields (StarDict's documentation, "sametypesequence"): each has a type letter. A
 * lower-case type is text, ended by a NUL; an upper-case one is binary, its size first (32 bits, big
 * endian). With `sametypesequence`, the letters are the .ifo's and not repeated, and the last field
 * runs to the entry's end without NUL or size.
 */

/** Plain text: meaning (`m`), locale text (`l`), YinBiao or kana (`y`), MediaWiki (`w`), WordNet (`n`). */
const TEXT = new Set(['m', 'l', 'y', 'w', 'n']);
/** Markup reduced to text: HTML (`h`), Pango (`g`), XDXF (`x`), KingSoft PowerWord's XML (`k`). */
const MARKUP = new Set(['h', 'g', 'x', 'k']);
// The rest is left out: phonetics (`t`: the definition is the meaning), resources (`r`), sounds, pictures…

export interface Field {
  type: string;
  bytes: Buffer;
}

const NUL = 0;

/** A field's end (exclusive) and the next field's start, or null when the entry stops short. */
function fieldEnd(
  data: Buffer,
  type: string,
  start: number,
  last: boolean,
): { end: number; next: number; from: number } | null {
  if (last) return { from: start, end: data.length, next: data.length };
  if (type === type.toLowerCase()) {
    const nul = data.indexOf(NUL, start);
    const end = nul < 0 ? data.length : nul; // a last text field may lack its NUL
    return { from: start, end, next: end + 1 };
  }
  if (start + 4 > data.length) return null;
  const size = data.readUInt32BE(start);
  if (start + 4 + size > data.length) return null;
  return { from: start + 4, end: start + 4 + size, next: start + 4 + size };
}

/** The entry's fields, or null when they do not fit its bytes (the caller names the offset). */
export function entryFields(data: Buffer, sametypesequence: string | null): Field[] | null {
  const fields: Field[] = [];
  let at = 0;
  if (sametypesequence) {
    for (let i = 0; i < sametypesequence.length && at <= data.length; i++) {
      const type = sametypesequence[i];
      const span = fieldEnd(data, type, at, i === sametypesequence.length - 1);
      if (!span) return null;
      fields.push({ type, bytes: data.subarray(span.from, span.end) });
      at = span.next;
    }
    return fields;
  }
  while (at < data.length) {
    const type = String.fromCharCode(data[at]);
    if (!/[a-zA-Z]/.test(type)) return null;
    const span = fieldEnd(data, type, at + 1, false);
    if (!span) return null;
    fields.push({ type, bytes: data.subarray(span.from, span.end) });
    at = span.next;
  }
  return fields;
}

/** The definition's text: its text fields, markup reduced, one per line; '' when it has none. */
export function fieldsText(fields: Field[], decode: (bytes: Buffer) => string): string {
  const parts: string[] = [];
  for (const { type, bytes } of fields) {
    if (TEXT.has(type)) parts.push(plainText(decode(bytes)));
    else if (MARKUP.has(type)) parts.push(htmlToText(decode(bytes)));
  }
  return parts.filter(Boolean).join('\n');
}
