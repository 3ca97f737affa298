import { DictionaryFileError, type DictionaryFile } from '../dictionaries/formats/types';
import { FORM_MAX } from './hunspell/hunspell';
import { lineText, readLineBatches } from '../dictionaries/formats/line-reader';
import { hasControl } from '../dictionaries/formats/safe-text';
import { MAX_LINE_BYTES, type FormLemma } from './types';

/** A header line the list may start with, in either order of words' case. */
const HEADER = /^form[\t,]lemma$/i;

/** The fields of one CSV line (RFC 4180 quoting, on one line), or a reason it cannot be read. */
export function csvFields(text: string): string[] | string {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let value = '';
      for (i++; ; i++) {
        if (i >= text.length) return 'a quoted field is not closed (fields cannot span lines)';
        if (text[i] === '"' && text[i + 1] === '"') {
          value += '"';
          i++;
        } else if (text[i] === '"') break;
        else value += text[i];
      }
      fields.push(value);
      i++;
      if (i < text.length && text[i] !== ',') return 'a quoted field is followed by more than a comma';
    } else {
      const comma = text.indexOf(',', i);
      fields.push(text.slice(i, comma === -1 ? text.length : comma));
      i = comma === -1 ? text.length : comma;
    }
    if (i >= text.length) return fields;
    i++; // the comma
  }
}

/**
 * The (form, lemma) pairs of a list: `.tsv` (a tab between) or `.csv` (a comma, quotes as RFC 4180 has
 * them), UTF-8, an optional "form, lemma" header, blank lines and lines starting with "#" skipped.
 * Repeated pairs are given again, not remembered (a 50 MB list's pairs would take hundreds of MB): the
 * counts are of distinct forms and lemmas, and the lookup reads distinct lemmas (docs/word-forms.md).
 * Throws DictionaryFileError naming the line at the first line that is not a pair.
 */
export async function* readFormList(list: DictionaryFile): AsyncGenerator<FormLemma> {
  const csv = list.name.toLowerCase().endsWith('.csv');
  let first = true;
  for await (const batch of readLineBatches(list, MAX_LINE_BYTES)) {
    for (const line of batch) {
      const { number } = line;
      const text = lineText(list, line);
      if (!text.trim() || text.trimStart().startsWith('#')) continue;
      const header =
        first &&
        HEADER.test(
          text
            .trim()
            .replace(/\s*([\t,])\s*/, '$1')
            .replace(/"/g, ''),
        );
      first = false;
      if (header) continue;
      const fail = (problem: string): never => {
        throw new DictionaryFileError(list.name, `line ${number}`, problem);
      };
      const fields = csv ? csvFields(text) : text.split('\t');
      if (typeof fields === 'string') return fail(fields);
      const separator = csv ? 'a comma' : 'a tab';
      if (fields.length !== 2)
        fail(`expected a form and a lemma separated by ${separator}, found ${fields.length} field(s)`);
      const [form, lemma] = fields.map((field) => field.trim().normalize('NFC'));
      if (!form || !lemma) fail('the form and the lemma may not be empty');
      if (hasControl(form) || hasControl(lemma)) fail('a form or lemma holds a control character');
      if (form.length > FORM_MAX || lemma.length > FORM_MAX)
        fail(`a form or lemma is longer than ${FORM_MAX} characters`);
      yield { form, lemma };
    }
  }
}
