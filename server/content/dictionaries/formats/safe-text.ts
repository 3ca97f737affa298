import { Parser } from 'htmlparser2';
import { shortened } from '../../../platform/common/cut-text';

/**
 * Definitions become plain text before they are stored (docs/dictionary-formats.md, "HTML"): the reader
 * shows them as text, never as markup, so nothing a dictionary holds can run in a learner's page.
 */

/** Elements that end a line: a definition's structure survives as lines. */
const BLOCK = new Set(
  'address article aside blockquote br dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table tbody td tfoot th thead tr ul'.split(
    ' ',
  ),
);
/** Elements whose text is not for reading. */
const HIDDEN = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'head',
  'title',
  'object',
  'iframe',
  'svg',
  'math',
]);

/**
 * HTML (or a StarDict's Pango or XDXF markup) as plain text: tags dropped, `<br>`, `<p>`, `<li>` and the
 * other block elements turned into line breaks (one, never an empty line), entities decoded (named and numeric), the text of
 * `<script>`, `<style>` and their like dropped whole; then `plainText`.
 */
export function htmlToText(html: string): string {
  let text = '';
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) hidden++;
        else if (BLOCK.has(name)) text += '\n';
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        else if (BLOCK.has(name)) text += '\n';
      },
      ontext(data) {
        // In HTML, a line break in the source is a space; lines come from the elements.
        if (!hidden) text += data.replace(/[\r\n\t]+/g, ' ');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  // An element both opens and closes a line, so `<br>` and `</p><p>` each make two: one line break is meant.
  return plainText(text).replace(/\n{2,}/g, '\n');
}

/* eslint-disable no-control-regex -- these patterns are there to find control characters */
const CONTROL =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFEFF\uFFFE\uFFFF\uD800-\uDFFF]/;
/** Pairs are kept whole: only a surrogate without its other half is removed. */
const CONTROLS =
  /[\uD800-\uDBFF][\uDC00-\uDFFF]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFEFF\uFFFE\uFFFF\uD800-\uDFFF]/g;
/** Anything plainText would change; most definitions have none, and one test is cheaper than five replaces. */
const NEEDS_WORK =
  /[\u0000-\u0009\u000B-\u001F\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202A-\u202F\u205F\u2066-\u2069\u3000\uD800-\uDFFF\uFEFF\uFFFE\uFFFF]| [ \n]|\n[ \n]|^[ \n]|[ \n]$/;
/* eslint-enable no-control-regex */
const keepPairs = (found: string) => (found.length === 2 ? found : '');

/** Whether text holds a control character (NUL among them), which no database column may take. */
export const hasControl = (text: string): boolean => CONTROL.test(text);

/** Text with its control characters removed, its lines and spaces as they are. */
export const withoutControls = (text: string): string =>
  CONTROL.test(text) ? text.replace(CONTROLS, keepPairs) : text;

/**
 * Plain text made safe to store and show: line breaks made `\n`, tabs spaces, control characters, bidi
 * overrides (which can make text read backwards), lone surrogates and byte-order marks removed; each
 * line's spaces collapsed and trimmed; at most one empty line in a row, none at either end.
 *
 * A few passes over the whole text rather than work per line: a dictionary has half a million of these.
 */
export function plainText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  if (CONTROL.test(text)) text = text.replace(CONTROLS, keepPairs);
  return text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^[\n ]+|[\n ]+$/g, '');
}

/** Tags a hand-made file (TSV, CSV) would use: only then is its definition read as HTML. */
const LOOKS_LIKE_HTML =
  /<\/?(?:a|b|br|div|em|font|h[1-6]|i|li|ol|p|small|span|strong|sub|sup|table|td|tr|u|ul|script|style)\b[^>]*>|&(?:#\d+|#x[\da-f]+|[a-z]+\d*);/i;

export const looksLikeHtml = (text: string): boolean => LOOKS_LIKE_HTML.test(text);

/** A definition within the limit: a longer one keeps its start and ends with an ellipsis. */
export const withinLimit = (definition: string, max: number): string => shortened(definition, max);
