import { canonicalTag } from '../../platform/common/language-tags';
import { storedTextProblem } from '../../platform/common/stored-text';
import { MAX_TRANSLATION_LANGUAGES, MAX_TRANSLATION_LENGTH } from '../phrases/translations-field';

/**
 * The text of a chapter import (docs/import.md): a TSV or CSV with a header row (phrase, dictionary,
 * audio, and `translation:<tag>` columns), or plain blocks separated by blank lines (the phrase, then its glossary lines). Files come as
 * UTF-8 with or without a BOM, or as the UTF-16 that spreadsheets save.
 */

export interface TextRow {
  /** 1-based, in the file's order. */
  n: number;
  phrase: string;
  /** Glossary lines, "term — meaning" each, joined with newlines. */
  dictionary: string;
  /** The clip's file name, as the TSV or CSV names it; null in plain-text mode (clips go by order). */
  audio: string | null;
  /** Its translations by canonical tag, from the `translation:<tag>` columns; empty cells left out. */
  translations: Record<string, string>;
}

export interface ParsedText {
  format: 'tsv' | 'csv' | 'blocks';
  rows: TextRow[];
  /**
   * Problems of the header that still let the rows be read and previewed (a `translation:` column whose
   * tag is malformed is left out and named here); the import cannot be committed until they are fixed.
   */
  problems: string[];
}

/** A whole-file problem: the file cannot be read as any of the formats. */
export class TextRejected extends Error {}

/**
 * Decodes the bytes by their BOM (UTF-16 LE or BE, UTF-8), UTF-8 otherwise. Bytes that are not text in
 * their encoding (invalid UTF-8, half a surrogate pair in UTF-16) are refused, never stored as U+FFFD.
 */
export function decodeText(bytes: Buffer): string {
  const decode = (encoding: 'utf-8' | 'utf-16le' | 'utf-16be', body: Buffer) => {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(body);
    } catch {
      throw new TextRejected('The text file is not UTF-8 or UTF-16 text.');
    }
  };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decode('utf-16le', bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decode('utf-16be', bytes.subarray(2));
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  // UTF-16 without a BOM: every other byte of ASCII text is zero.
  if (body.length >= 4 && body[1] === 0 && body[3] === 0) return decode('utf-16le', body);
  if (body.length >= 4 && body[0] === 0 && body[2] === 0) return decode('utf-16be', body);
  return decode('utf-8', body);
}

/** RFC 4180 records: quoted fields may hold the separator, quotes ("") and line breaks. */
export function parseDelimited(text: string, separator: ',' | '\t'): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') {
        quoted = false;
        // Spaces between a closing quote and the separator are the editor's, not the field's.
        let next = i + 1;
        while (text[next] === ' ' || (text[next] === '\t' && separator !== '\t')) next++;
        const after = text[next];
        if (after === undefined || after === separator || after === '\n' || after === '\r') i = next - 1;
        // A quote that opens a field but does not close it (`"Hello," she said.`) is text, not quoting.
        else field = `"${field}"`;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === separator) endField();
    else if (ch === '\r' && text[i + 1] === '\n') {
      endRecord();
      i++;
    } else if (ch === '\n' || ch === '\r') endRecord();
    else field += ch;
    i++;
  }
  if (quoted) throw new TextRejected('The text file has a quoted field that never ends.');
  if (field !== '' || record.length > 0) endRecord();
  // Blank lines, and the empty rows spreadsheets leave at the end (",,"), are no records.
  return records.filter((r) => r.some((cell) => cell.trim() !== ''));
}

/** Glossary entries as one per line: " | " separates entries on one line, as newlines do. */
export function glossaryLines(value: string): string {
  return value
    .split(/\r\n|\r|\n|\s\|\s/)
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

const HEADERS = ['phrase', 'dictionary', 'audio'];
/** A translation's column: `translation:en`, `translation:pt-BR` (any case; the tag is checked later). */
const TRANSLATION_COLUMN = /^translation:/;
/**
 * The most columns a header may have: its three, a translation per language a phrase may have, and room
 * for the empty ones spreadsheets leave. More is refused before any row is read, so a hostile header of
 * thousands of columns costs nothing (each row would otherwise be walked column by column).
 */
export const MAX_COLUMNS = HEADERS.length + MAX_TRANSLATION_LANGUAGES + 40;
/** The most problems a header's message names; the rest are counted ("… and 3 more"). */
export const MAX_PROBLEMS = 5;

/**
 * A column name as a header may hold it: a word, or any `translation:` cell (a malformed tag, such as
 * `translation:pt BR`, is then reported rather than the whole file read as plain text).
 */
const isColumnName = (name: string) => /^[a-z_]+$/.test(name) || TRANSLATION_COLUMN.test(name);

/** A header row: `phrase` and only known column names (so "Phrase, he said." stays a phrase). */
function headerFormat(firstLine: string): 'tsv' | 'csv' | null {
  const isHeader = (separator: string) => {
    const names = firstLine
      .split(separator)
      .map((cell) => cell.trim().replace(/^"|"$/g, '').trim().toLowerCase())
      .filter(Boolean);
    // Every cell a column name, known or not (a misspelt one is then reported), one of them `phrase`.
    return names.includes('phrase') && names.every(isColumnName);
  };
  // A tab-separated first line naming `phrase` is a header even with a misspelt column, which is then
  // reported; phrases themselves hold no tabs.
  const tabbed = firstLine.split('\t').map((cell) => cell.trim().toLowerCase());
  if (tabbed.length > 1 && tabbed.includes('phrase')) return 'tsv';
  if (isHeader('\t')) return 'tsv';
  if (isHeader(',')) return 'csv';
  return null;
}

/** Problems as one message: the first MAX_PROBLEMS, then how many more, so a 422 stays small. */
export function someProblems(problems: string[]): string[] {
  if (problems.length <= MAX_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_PROBLEMS), `… and ${problems.length - MAX_PROBLEMS} more.`];
}

/** Names as a list a message can hold: the first MAX_PROBLEMS, each cut short, then how many more. */
const someNames = (names: string[]) =>
  names
    .slice(0, MAX_PROBLEMS)
    .map((name) => name.slice(0, 60))
    .join(', ') + (names.length > MAX_PROBLEMS ? ` and ${names.length - MAX_PROBLEMS} more` : '');

/** More rows than an import takes: refused before they are read (`count` for the caller's message). */
export class TooManyRows extends TextRejected {
  constructor(readonly count: number) {
    super(`The text has ${count} phrases.`);
  }
}

/**
 * Reads an import's text in whichever format it is; the header row decides (docs/import.md). More than
 * `maxRows` rows is a TooManyRows, thrown before the rows are mapped.
 */
export function parseImportText(bytes: Buffer, maxRows = Infinity): ParsedText {
  const text = decodeText(bytes).replace(/^\uFEFF/, '');
  if (!text.trim()) throw new TextRejected('The text file is empty.');
  const firstLine = text.split(/\r\n|\r|\n/, 1)[0];
  const format = headerFormat(firstLine);
  if (!format) {
    const rows = parseBlocks(text);
    if (rows.length > maxRows) throw new TooManyRows(rows.length);
    return { format: 'blocks', rows, problems: [] };
  }
  const [header, ...records] = parseDelimited(text, format === 'tsv' ? '\t' : ',');
  const columns = header.map((name) => name.trim().toLowerCase());
  const translationCount = columns.filter((name) => TRANSLATION_COLUMN.test(name)).length;
  if (translationCount > MAX_TRANSLATION_LANGUAGES)
    throw new TextRejected(
      `The header has ${translationCount} translation columns; a phrase may have at most ${MAX_TRANSLATION_LANGUAGES} languages.`,
    );
  if (columns.length > MAX_COLUMNS)
    throw new TextRejected(`The header has ${columns.length} columns; the most is ${MAX_COLUMNS}.`);
  const unknown = columns.filter((name) => name && !HEADERS.includes(name) && !TRANSLATION_COLUMN.test(name));
  if (unknown.length)
    throw new TextRejected(
      `The header names unknown columns: ${someNames(unknown)}. The columns are phrase, dictionary, audio and translation:<language> (such as translation:en).`,
    );
  if (records.length > maxRows) throw new TooManyRows(records.length);
  const { languages, problems } = translationColumns(header);
  // Each column's index, found once (not per row and field).
  const phraseAt = columns.indexOf('phrase');
  const dictionaryAt = columns.indexOf('dictionary');
  const audioAt = columns.indexOf('audio');
  return {
    format,
    problems: someProblems(problems),
    rows: records.map((cells, i) => {
      const translations: Record<string, string> = {};
      for (const [column, tag] of languages) {
        const value = (cells[column] ?? '').replace(/\r\n?/g, '\n').trim();
        if (value !== '') translations[tag] = value;
      }
      return {
        n: i + 1,
        phrase: (cells[phraseAt] ?? '').trim(),
        dictionary: dictionaryAt >= 0 ? glossaryLines(cells[dictionaryAt] ?? '') : '',
        audio: audioAt >= 0 ? (cells[audioAt] ?? '').trim() || null : null,
        translations,
      };
    }),
  };
}

/**
 * The header's `translation:<tag>` columns (at most MAX_TRANSLATION_LANGUAGES, checked before): each
 * column's index and canonical tag. The tag is trimmed (`translation: en` is English); a malformed tag or a
 * language named twice (`translation:pt-br` and `translation:pt-BR`) is a problem, and such a column is left
 * out.
 */
function translationColumns(header: string[]): { languages: Array<[number, string]>; problems: string[] } {
  const languages: Array<[number, string]> = [];
  const seen = new Set<string>();
  const problems: string[] = [];
  header.forEach((cell, column) => {
    const name = cell.trim();
    if (!TRANSLATION_COLUMN.test(name.toLowerCase())) return;
    const tag = canonicalTag(name.slice('translation:'.length).trim());
    if (tag === null)
      problems.push(
        `The column "${name.slice(0, 60)}" does not name a language: write translation: and a language tag (BCP 47), such as translation:en or translation:pt-BR.`,
      );
    else if (seen.has(tag)) problems.push(`Two columns hold the ${tag} translation: keep one.`);
    else {
      seen.add(tag);
      languages.push([column, tag]);
    }
  });
  return { languages, problems };
}

/**
 * A blank line between blocks: a line end, then one or more lines of nothing but spaces. A CRLF is one
 * line end, never a CR and an LF around an empty line (a Windows file would have a block per line).
 */
const BLANK_LINES = /(?:\r\n|\r(?!\n)|\n)(?:[^\S\r\n]*(?:\r\n|\r(?!\n)|\n))+/;

/** Blocks separated by blank lines: the first line is the phrase, the rest its glossary. */
function parseBlocks(text: string): TextRow[] {
  return text
    .split(BLANK_LINES)
    .map((block) => block.split(/\r\n|\r|\n/).map((line) => line.trim()))
    .map((lines) => lines.filter(Boolean))
    .filter((lines) => lines.length > 0)
    .map((lines, i) => ({
      n: i + 1,
      phrase: lines[0],
      dictionary: glossaryLines(lines.slice(1).join('\n')),
      audio: null,
      translations: {},
    }));
}

/**
 * What is wrong with a row's own text, if anything: an empty phrase is the first thing to fix. A character
 * no stored text may hold (a NUL, a control character) is refused as the forms refuse it (stored-text.ts).
 * Lengths come first: a reader that cuts a long text (epub-xml.ts textOf) leaves what it cut, however it
 * ends, for this to call too long.
 */
export function rowTextProblem(row: {
  phrase: string;
  dictionary: string;
  translations?: Record<string, string>;
}): string | null {
  if (!row.phrase) return 'The phrase is empty.';
  if (row.phrase.length > 2000) return 'The phrase is longer than 2000 characters.';
  if (row.dictionary.length > 5000) return 'The glossary is longer than 5000 characters.';
  const phraseProblem = storedTextProblem(row.phrase);
  if (phraseProblem) return `The phrase ${phraseProblem}`;
  const glossaryProblem = storedTextProblem(row.dictionary);
  if (glossaryProblem) return `The glossary ${glossaryProblem}`;
  for (const [tag, text] of Object.entries(row.translations ?? {})) {
    if (text.length > MAX_TRANSLATION_LENGTH)
      return `The ${tag} translation is longer than ${MAX_TRANSLATION_LENGTH} characters.`;
    const problem = storedTextProblem(text);
    if (problem) return `The ${tag} translation ${problem}`;
  }
  return null;
}

/** File names in natural order: "2.mp3" before "10.mp3". */
export const naturalOrder = (a: string, b: string) =>
  a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' });

/** A cell as parseDelimited reads it back: quoted when it holds a quote, a tab or a line break. */
function tsvCell(value: string): string {
  return /["\t\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * Rows as the TSV that parseImportText reads (the whole-book export writes each chapter so). Glossaries
 * keep their lines as newlines inside quotes, which the reader gives back as they are, provided they are
 * already one trimmed, non-empty entry per line without " | " inside, as the reader shows them anyway.
 * Translations get a `translation:<tag>` column per language any row has, sorted; none, no column.
 */
export function toTsv(
  rows: Array<{ phrase: string; dictionary: string; audio: string; translations?: Record<string, string> }>,
): string {
  const languages = [...new Set(rows.flatMap((row) => Object.keys(row.translations ?? {})))].sort();
  const lines = rows.map((row) =>
    [row.phrase, row.dictionary, row.audio, ...languages.map((tag) => row.translations?.[tag] ?? '')]
      .map(tsvCell)
      .join('\t'),
  );
  const header = [...HEADERS, ...languages.map((tag) => `translation:${tag}`)];
  return [header.join('\t'), ...lines].join('\n') + '\n';
}
