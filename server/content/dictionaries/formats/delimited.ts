import { EntryCount, MAX_HEADWORD, MAX_POS } from './entry-limits';
import { lineText, readLineBatches } from './line-reader';
import { htmlToText, looksLikeHtml, plainText, withinLimit } from './safe-text';
import {
  DictionaryFileError,
  type DictionaryFile,
  type DictionaryLimits,
  type OpenedDictionary,
  type ParsedEntry,
} from './types';

/** A record of the file and the line it starts on. */
interface Row {
  fields: string[];
  line: number;
}

/**
 * CSV records (RFC 4180): a field in double quotes may hold commas, doubled quotes and line breaks, so
 * a record may span lines. A quote inside an unquoted field is kept as a character. Memory holds one
 * record, bounded by `maxChars`.
 */
class CsvRecords {
  private fields: string[] = [];
  private field = '';
  private quoted = false;
  private start = 0;

  constructor(
    private readonly file: DictionaryFile,
    private readonly maxChars: number,
  ) {}

  /** Feeds a line; returns the record it completes, or null while a quoted field goes on. */
  push(text: string, line: number): Row | null {
    if (!this.quoted) this.start = line;
    let i = 0;
    let fieldStart = !this.quoted && this.field === '';
    while (i < text.length) {
      const ch = text[i];
      if (this.quoted) {
        const close = text.indexOf('"', i);
        if (close < 0) {
          this.field += text.slice(i);
          i = text.length;
        } else if (text[close + 1] === '"') {
          this.field += text.slice(i, close + 1);
          i = close + 2;
        } else {
          this.field += text.slice(i, close);
          this.quoted = false;
          i = close + 1;
          if (i < text.length && text[i] !== ',')
            throw new DictionaryFileError(
              this.file.name,
              `line ${line}`,
              'has a character after a closing quote (a quote inside a quoted field is written "").',
            );
        }
      } else if (ch === '"' && fieldStart) {
        this.quoted = true;
        i++;
      } else if (ch === ',') {
        this.fields.push(this.field);
        this.field = '';
        fieldStart = true;
        i++;
        continue;
      } else {
        const next = text.indexOf(',', i);
        const end = next < 0 ? text.length : next;
        this.field += text.slice(i, end);
        i = end;
      }
      fieldStart = false;
    }
    if (this.quoted) {
      this.field += '\n';
      if (this.field.length > this.maxChars)
        throw new DictionaryFileError(
          this.file.name,
          `line ${this.start}`,
          `has a quoted field longer than ${this.maxChars} characters (is a closing quote missing?).`,
        );
      return null;
    }
    const fields = [...this.fields, this.field];
    this.fields = [];
    this.field = '';
    return { fields, line: this.start };
  }

  /** At the file's end: a quoted field still open is refused, naming the line it opened on. */
  end(): void {
    if (this.quoted)
      throw new DictionaryFileError(
        this.file.name,
        `line ${this.start}`,
        'opens a quoted field that is never closed.',
      );
  }
}

/** TSV fields: split at tabs; a field wholly in double quotes (as spreadsheets save them) is unquoted. */
const tsvFields = (text: string) =>
  text
    .split('\t')
    .map((field) =>
      field.length > 1 && field.startsWith('"') && field.endsWith('"')
        ? field.slice(1, -1).replace(/""/g, '"')
        : field,
    );

const HEADWORD = /^(?:headword|word|term)$/i;
const DEFINITION = /^(?:definition|meaning|translation)$/i;

/**
 * A TSV (`.tsv`, `.txt`) or CSV (`.csv`) of headword, definition and an optional part of speech
 * (docs/dictionary-formats.md, "TSV and CSV"); a first row naming the columns is skipped.
 */
export function openDelimited(
  file: DictionaryFile,
  format: 'tsv' | 'csv',
  limits: DictionaryLimits,
): OpenedDictionary {
  // A row holds a definition up to 4 bytes a character, and room for its headword and markup.
  const maxLine = Math.max(1 << 20, limits.definitionChars * 4 + (1 << 16));
  async function* rows(): AsyncGenerator<Row> {
    const csv = format === 'csv' ? new CsvRecords(file, maxLine) : null;
    for await (const lines of readLineBatches(file, maxLine))
      for (const raw of lines) {
        const text = lineText(file, raw);
        if (csv) {
          const row = csv.push(text, raw.number);
          if (row && !(row.fields.length === 1 && !row.fields[0].trim())) yield row;
        } else if (text.trim() && !text.startsWith('#')) yield { fields: tsvFields(text), line: raw.number };
      }
    csv?.end();
  }
  async function* entries(): AsyncGenerator<ParsedEntry> {
    const count = new EntryCount(file.name, limits.entries);
    let first = true;
    for await (const { fields, line } of rows()) {
      const header =
        first && HEADWORD.test(fields[0]?.trim() ?? '') && DEFINITION.test(fields[1]?.trim() ?? '');
      first = false;
      if (header) continue;
      const where = `line ${line}`;
      const entry = entryOf(file, fields, where, format, limits);
      count.add(where);
      yield entry;
    }
  }
  return { format, meta: {}, entries, skipped: 0, close: () => Promise.resolve() };
}

function entryOf(
  file: DictionaryFile,
  fields: string[],
  where: string,
  format: 'tsv' | 'csv',
  limits: DictionaryLimits,
): ParsedEntry {
  const problem = (text: string) => new DictionaryFileError(file.name, where, text);
  const columns = format === 'tsv' ? 'tab-separated' : 'comma-separated';
  // Trailing empty cells (a spreadsheet's unused columns) are not a fourth column.
  while (fields.length > 3 && !fields[fields.length - 1].trim()) fields.pop();
  if (fields.length < 2)
    throw problem(
      `has no definition: a row is a headword, a definition and an optional part of speech, ${columns}.`,
    );
  if (fields.length > 3)
    throw problem(
      `has ${fields.length} ${columns} fields; a row has a headword, a definition and an optional part of speech.`,
    );
  const headword = plainText(fields[0]);
  if (!headword) throw problem('has no headword.');
  if (headword.includes('\n')) throw problem('has a headword of more than one line.');
  if (headword.length > MAX_HEADWORD) throw problem(`has a headword longer than ${MAX_HEADWORD} characters.`);
  const definition = looksLikeHtml(fields[1]) ? htmlToText(fields[1]) : plainText(fields[1]);
  if (!definition) throw problem('has no definition.');
  const pos = plainText(fields[2] ?? '') || null;
  if (pos && pos.length > MAX_POS) throw problem(`has a part of speech longer than ${MAX_POS} characters.`);
  return { headword, definition: withinLimit(definition, limits.definitionChars), pos };
}
