import {
  decodeText,
  glossaryLines,
  naturalOrder,
  parseImportText,
  TextRejected,
  TooManyRows,
  toTsv,
} from './text-formats';

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

describe('import text formats', () => {
  it('reads a TSV with a header, RFC 4180 quotes, and glossaries split by " | " or newlines', () => {
    const tsv =
      'phrase\tdictionary\taudio\n' +
      'Bonjour.\tbonjour — hello | tout — all\t1.mp3\n' +
      '"Il a dit ""oui""."\t"dire — to say\noui — yes"\t2.mp3\n';
    expect(parseImportText(Buffer.from(tsv))).toEqual({
      format: 'tsv',
      problems: [],
      rows: [
        {
          n: 1,
          phrase: 'Bonjour.',
          dictionary: 'bonjour — hello\ntout — all',
          audio: '1.mp3',
          translations: {},
        },
        {
          n: 2,
          phrase: 'Il a dit "oui".',
          dictionary: 'dire — to say\noui — yes',
          audio: '2.mp3',
          translations: {},
        },
      ],
    });
  });

  it('reads a CSV with a BOM, CRLF, commas inside quotes and columns in any order', () => {
    const csv = '\uFEFFaudio,phrase,dictionary\r\na.mp3,"Oui, merci.",merci — thanks\r\n\r\nb.mp3,Non.,\r\n';
    expect(parseImportText(Buffer.from(csv)).rows).toEqual([
      { n: 1, phrase: 'Oui, merci.', dictionary: 'merci — thanks', audio: 'a.mp3', translations: {} },
      { n: 2, phrase: 'Non.', dictionary: '', audio: 'b.mp3', translations: {} },
    ]);
  });

  it('reads the UTF-16 that spreadsheets save, with or without a BOM', () => {
    const tsv = 'phrase\tdictionary\taudio\nGrüß Gott.\tgrüßen — to greet\t1.mp3\n';
    expect(parseImportText(utf16le(tsv)).rows[0].phrase).toBe('Grüß Gott.');
    expect(parseImportText(Buffer.from(tsv, 'utf16le')).rows[0].dictionary).toBe('grüßen — to greet');
    expect(
      decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('Ça', 'utf16le').swap16()])),
    ).toBe('Ça');
  });

  it('reads plain blocks: the phrase, then its glossary lines', () => {
    const text = 'Il pleut.\npleuvoir — to rain\n\n\nIl fait froid.\nfroid — cold\nfaire — to do\n\nFin.\n';
    expect(parseImportText(Buffer.from(text))).toEqual({
      format: 'blocks',
      problems: [],
      rows: [
        { n: 1, phrase: 'Il pleut.', dictionary: 'pleuvoir — to rain', audio: null, translations: {} },
        {
          n: 2,
          phrase: 'Il fait froid.',
          dictionary: 'froid — cold\nfaire — to do',
          audio: null,
          translations: {},
        },
        { n: 3, phrase: 'Fin.', dictionary: '', audio: null, translations: {} },
      ],
    });
  });

  it('reads plain blocks with Windows (CRLF) and old Mac (CR) line ends as it reads LF', () => {
    const lf = 'Il pleut.\npleuvoir — to rain\n\n \t\nIl fait froid.\nfroid — cold\nfaire — to do\n';
    const rows = parseImportText(Buffer.from(lf)).rows;
    expect(rows.map((row) => [row.phrase, row.dictionary])).toEqual([
      ['Il pleut.', 'pleuvoir — to rain'],
      ['Il fait froid.', 'froid — cold\nfaire — to do'],
    ]);
    expect(parseImportText(Buffer.from(lf.replace(/\n/g, '\r\n'))).rows).toEqual(rows);
    expect(parseImportText(Buffer.from(lf.replace(/\n/g, '\r'))).rows).toEqual(rows);
  });

  it('refuses text that cannot be read, an unknown column and a quote that never ends', () => {
    expect(() => parseImportText(Buffer.from([0xc3, 0x28, 0xa0, 0xa1]))).toThrow(TextRejected);
    // Half a surrogate pair in UTF-16 is no more text than bad UTF-8 (it would be stored as U+FFFD).
    expect(() => decodeText(utf16le('phrase\nA\ud800b.\n'))).toThrow(TextRejected);
    expect(() => decodeText(Buffer.from('phrase\nA\udc00b.\n', 'utf16le'))).toThrow(TextRejected);
    expect(() => parseImportText(Buffer.from('   \n'))).toThrow('The text file is empty.');
    expect(() => parseImportText(Buffer.from('phrase\tclip\nx\ty\n'))).toThrow('unknown columns: clip');
    expect(() => parseImportText(Buffer.from('phrase,audio\n"open,a.mp3\n'))).toThrow('never ends');
  });

  it('keeps quotes that do not quote a field, skips empty spreadsheet rows, and knows a phrase from a header', () => {
    const tsv = 'phrase\tdictionary\taudio\n"Hello," she said.\tsay — dire\t1.mp3\n\t\t\n';
    expect(parseImportText(Buffer.from(tsv)).rows).toEqual([
      { n: 1, phrase: '"Hello," she said.', dictionary: 'say — dire', audio: '1.mp3', translations: {} },
    ]);
    expect(parseImportText(Buffer.from('phrase,audio\nOui.,1.mp3\n,,\n')).rows).toHaveLength(1);
    // A quoted field with spaces before its separator keeps its value, not its quotes.
    expect(parseImportText(Buffer.from('phrase,audio\n"Hallo, Welt" ,"1.mp3" \n')).rows[0]).toMatchObject({
      phrase: 'Hallo, Welt',
      audio: '1.mp3',
    });
    expect(() => parseImportText(Buffer.from('phrase,dictonary,audio\nA.,a — b,1.mp3\n'))).toThrow(
      'unknown columns: dictonary',
    );
    expect(parseImportText(Buffer.from('Phrase, he said.\n\nAnother.\n'))).toMatchObject({
      format: 'blocks',
      rows: [{ phrase: 'Phrase, he said.' }, { phrase: 'Another.' }],
    });
  });

  it('sorts names naturally and splits glossaries', () => {
    expect(['10.mp3', '2.mp3', '1.mp3'].sort(naturalOrder)).toEqual(['1.mp3', '2.mp3', '10.mp3']);
    expect(glossaryLines(' a — b | c — d\n\n e — f ')).toBe('a — b\nc — d\ne — f');
    // A bar without spaces is part of a meaning.
    expect(glossaryLines('x — a|b')).toBe('x — a|b');
  });

  it('writes a TSV that it reads back exactly: quotes, tabs, line breaks and any script', () => {
    const rows = [
      {
        phrase: 'Il dit "au revoir".',
        dictionary: 'dire — to say\nau revoir — goodbye',
        audio: '001.mp3',
        translations: {},
      },
      {
        phrase: 'Colonne\tà\ttabulations',
        dictionary: 'tab\tentry — a tab inside',
        audio: '002.mp3',
        translations: {},
      },
      { phrase: 'Two\nlines, "quoted"\r\nand CRLF', dictionary: '', audio: '003.ogg', translations: {} },
      { phrase: '"Starts with a quote', dictionary: 'x — a|b\nç — ü', audio: '010.wav', translations: {} },
      { phrase: 'Привет, 世界! 🙂', dictionary: 'мир — world', audio: '011.mp3', translations: {} },
    ];
    const tsv = toTsv(rows);
    expect(tsv.split('\n', 1)[0]).toBe('phrase\tdictionary\taudio');
    expect(parseImportText(Buffer.from(tsv, 'utf8'))).toEqual({
      format: 'tsv',
      problems: [],
      rows: rows.map((row, i) => ({ n: i + 1, ...row, translations: {} })),
    });
    expect(parseImportText(Buffer.from(toTsv([]), 'utf8'))).toEqual({
      format: 'tsv',
      problems: [],
      rows: [],
    });
    // Translations: a column per language any row has, sorted; an empty cell is no translation.
    const translated: Array<{
      phrase: string;
      dictionary: string;
      audio: string;
      translations: Record<string, string>;
    }> = [
      { phrase: 'Bonjour.', dictionary: '', audio: '1.mp3', translations: { en: 'Hello.', de: 'Hallo.' } },
      { phrase: 'Merci.', dictionary: '', audio: '2.mp3', translations: { 'pt-BR': 'Obrigado,\n"muito".' } },
    ];
    const withTranslations = toTsv(translated);
    expect(withTranslations.split('\n', 1)[0]).toBe(
      'phrase\tdictionary\taudio\ttranslation:de\ttranslation:en\ttranslation:pt-BR',
    );
    expect(parseImportText(Buffer.from(withTranslations)).rows).toEqual(
      translated.map((row, i) => ({ n: i + 1, ...row })),
    );
  });

  it('reads translation:<tag> columns in any case, and lists a malformed tag as a problem', () => {
    const csv = 'phrase,Translation:EN,translation:pt-br,audio\nOui.,Yes.,Sim.,1.mp3\nNon.,,Não.,2.mp3\n';
    expect(parseImportText(Buffer.from(csv))).toEqual({
      format: 'csv',
      problems: [],
      rows: [
        {
          n: 1,
          phrase: 'Oui.',
          dictionary: '',
          audio: '1.mp3',
          translations: { en: 'Yes.', 'pt-BR': 'Sim.' },
        },
        { n: 2, phrase: 'Non.', dictionary: '', audio: '2.mp3', translations: { 'pt-BR': 'Não.' } },
      ],
    });
    const bad = parseImportText(
      Buffer.from(
        'phrase\ttranslation:en_us\ttranslation:\ttranslation:en\ttranslation:EN\nA.\tx\ty\tz\tw\n',
      ),
    );
    expect(bad.problems).toEqual([
      'The column "translation:en_us" does not name a language: write translation: and a language tag (BCP 47), such as translation:en or translation:pt-BR.',
      'The column "translation:" does not name a language: write translation: and a language tag (BCP 47), such as translation:en or translation:pt-BR.',
      'Two columns hold the en translation: keep one.',
    ]);
    expect(bad.rows[0].translations).toEqual({ en: 'z' });
    expect(() => parseImportText(Buffer.from('phrase\ttranslations:en\nA.\tB.\n'))).toThrow(
      'unknown columns: translations:en',
    );
  });

  it('reads a CSV header with a malformed translation column as a header, naming the column', () => {
    for (const column of ['translation:pt BR', 'translation:en.US']) {
      const parsed = parseImportText(Buffer.from(`phrase,audio,${column}\nOui.,1.mp3,Yes.\n`));
      expect(parsed.format).toBe('csv');
      expect(parsed.rows).toEqual([
        { n: 1, phrase: 'Oui.', dictionary: '', audio: '1.mp3', translations: {} },
      ]);
      expect(parsed.problems).toEqual([
        `The column "${column}" does not name a language: write translation: and a language tag (BCP 47), such as translation:en or translation:pt-BR.`,
      ]);
    }
    // Blank space around the tag is the editor's.
    const spaced = parseImportText(Buffer.from('phrase,translation: en \nOui.,Yes.\n'));
    expect(spaced).toMatchObject({ format: 'csv', problems: [], rows: [{ translations: { en: 'Yes.' } }] });
  });

  it('refuses a header of thousands of columns before reading its rows', () => {
    const translations = Array.from({ length: 5000 }, (_, i) => `translation:x${i}`).join('\t');
    const rows = 'A.\n'.repeat(5000);
    expect(() => parseImportText(Buffer.from(`phrase\t${translations}\n${rows}`))).toThrow(
      new TextRejected('The header has 5000 translation columns; a phrase may have at most 20 languages.'),
    );
    // 21 is already too many; empty or unknown columns by the thousand are refused too.
    const many = Array.from({ length: 21 }, (_, i) => `translation:${String.fromCharCode(97 + i)}a`);
    expect(() => parseImportText(Buffer.from(`phrase,${many.join(',')}\nA.\n`))).toThrow(
      'The header has 21 translation columns',
    );
    expect(() => parseImportText(Buffer.from(`phrase${'\t'.repeat(5000)}\nA.\n`))).toThrow(
      'The header has 5001 columns; the most is 63.',
    );
    const unknown = Array.from({ length: 30 }, (_, i) => `col_${'x'.repeat(i + 1)}`).join('\t');
    expect(() => parseImportText(Buffer.from(`phrase\t${unknown}\nA.\n`))).toThrow(
      'The header names unknown columns: col_x, col_xx, col_xxx, col_xxxx, col_xxxxx and 25 more. The columns',
    );
  });

  it('refuses more rows than asked for before mapping them, in either format', () => {
    expect(() => parseImportText(Buffer.from('phrase\nA.\nB.\nC.\n'), 2)).toThrow(new TooManyRows(3));
    expect(() => parseImportText(Buffer.from('A.\n\nB.\n\nC.\n'), 2)).toThrow(TooManyRows);
    expect(parseImportText(Buffer.from('phrase\nA.\nB.\n'), 2).rows).toHaveLength(2);
  });
});
