import { shortened } from '../../../platform/common/cut-text';
import { MAX_LICENCE, MAX_NAME } from './entry-limits';
import { plainText, withoutControls } from './safe-text';
import type { DictionaryMeta } from './types';

/**
 * What dictd's `00-database-*` entries say, as a dictionary's metadata (docs/dictionary-formats.md,
 * "Metadata"). FreeDict writes them the same way in every language pair:
 * - short: `Spanish-English FreeDict Dictionary ver. 0.3.1`;
 * - info: sections (`Availability:`, `Published at: …`, `Publisher: FreeDict.`);
 * - url: the upstream project's address, or `unknown`.
 */
export interface DictdHeader {
  short?: string;
  info?: string;
  url?: string;
}

/** `00databaseshort`, `00-database-short`: which header entry an index word is, if any. */
export function headerKey(word: string): keyof DictdHeader | 'other' | null {
  const match = /^00-?database-?(.*)$/i.exec(word);
  if (!match) return null;
  const key = match[1].toLowerCase();
  return key === 'short' || key === 'info' || key === 'url' ? key : 'other';
}

/** Old dictfmt repeats the entry's name as its first line (`00-database-short`), then indents the text. */
const withoutOwnName = (text: string) => text.replace(/^\s*00-?database-?\w*\s*\n/i, '');

const firstLine = (text: string) => plainText(withoutOwnName(text)).split('\n')[0] ?? '';

/** The paragraphs of a section of `info` (`Availability:` up to the next heading at the line's start). */
function section(info: string, heading: string): string[] {
  const lines = info.replace(/\r\n?/g, '\n').split('\n');
  const start = lines.findIndex((line) => line.trim().toLowerCase() === `${heading.toLowerCase()}:`);
  if (start < 0) return [];
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\S.*:\s*\S*/.test(line) && body.some((kept) => kept.trim())) break;
    body.push(line);
  }
  // A paragraph starts at a line indented more than the one before it (FreeDict: 4 spaces, then 2), or after a blank line.
  const paragraphs: string[][] = [];
  let indent = -1;
  for (const line of body) {
    const text = line.trim();
    const own = line.length - line.trimStart().length;
    if (!text) indent = -1;
    else if (indent < 0 || own > indent) paragraphs.push([text]);
    else paragraphs[paragraphs.length - 1].push(text);
    if (text) indent = own;
  }
  return paragraphs.map((words) => words.join(' '));
}

/** Warranty disclaimers and the "you should have received a copy" line are not the licence itself. */
const BOILERPLATE = /WITHOUT ANY WARRANTY|should have received a copy/i;
const LICENSING = /licen[cs]e|copyright|\(c\)|©|public domain|creative commons/i;

/** The licence: the `Availability:` section without its boilerplate, else the first paragraph about licensing. */
function licenceOf(info: string): string | undefined {
  let paragraphs = section(info, 'Availability').filter((text) => !BOILERPLATE.test(text));
  if (!paragraphs.length)
    paragraphs = info
      .split(/\n\s*\n/)
      .map((text) => text.replace(/\s+/g, ' ').trim())
      .filter((text) => LICENSING.test(text) && !BOILERPLATE.test(text))
      .slice(0, 1);
  const text = paragraphs.join('\n').trim();
  return text ? shortened(text, MAX_LICENCE) : undefined;
}

/** A few words naming the licence, for the attribution line under each lookup. */
function licenceName(licence: string | undefined): string | undefined {
  if (!licence) return undefined;
  const names: [RegExp, string][] = [
    [/GNU General Public License|\bGPL/, 'GPL'],
    [/GNU Affero General Public License|\bAGPL/, 'AGPL'],
    [/GNU Lesser General Public License|\bLGPL/, 'LGPL'],
    [/Creative Commons Attribution[- ]Share[- ]?Alike|CC[- ]BY[- ]SA/i, 'CC BY-SA'],
    [/public domain/i, 'public domain'],
  ];
  const found = names.filter(([pattern]) => pattern.test(licence)).map(([, name]) => name);
  return found.length ? found.join(', ') : undefined;
}

const isAddress = (text: string | undefined) => !!text && /^https?:\/\/\S+$/i.test(text);

/**
 * Metadata from the header entries:
 * - name: `short`'s first line without its ` ver. …` suffix;
 * - licence: `info`'s `Availability:` section (the copyright and licence, without the warranty text);
 * - attribution: `short` (with its version), then the publisher and licence name, then the address
 *   (`Published at:`, else `url`), e.g. `Spanish-English FreeDict Dictionary ver. 0.3.1 (FreeDict, GPL), http://freedict.org/`.
 */
export function dictdMeta(header: DictdHeader): DictionaryMeta {
  const meta: DictionaryMeta = {};
  const short = header.short ? firstLine(withoutControls(header.short)) : '';
  const info = header.info ? withoutOwnName(withoutControls(header.info)) : '';
  const name = short.replace(/\s+ver(?:sion|\.)?\s*\S+$/i, '').trim();
  if (name) meta.name = shortened(name, MAX_NAME);
  const licence = info ? licenceOf(info) : undefined;
  if (licence) meta.licence = licence;
  const publisher = /^\s*Publisher:\s*(.+?)\.?\s*$/im.exec(info)?.[1];
  const published = /^\s*Published at:\s*(\S+)/im.exec(info)?.[1];
  const url = header.url ? firstLine(header.url) : '';
  const address = isAddress(published) ? published : isAddress(url) ? url : undefined;
  const credits = [publisher, licenceName(licence)].filter(Boolean).join(', ');
  const attribution = [short && (credits ? `${short} (${credits})` : short), address]
    .filter(Boolean)
    .join(', ');
  if (attribution) meta.attribution = shortened(attribution, MAX_LICENCE);
  return meta;
}
