/* eslint-disable @typescript-eslint/no-unsafe-member-access -- the tests write wrong types into parsed manifests on purpose */
import { DamagedImport } from './manifest-checks';
import {
  bookProblems,
  readBookManifest,
  readChapterManifest,
  readyBook,
  type BookManifest,
  type ChapterManifest,
  type ChapterRow,
} from './manifests';

const row = (n: number, changes: Partial<ChapterRow> = {}): ChapterRow => ({
  n,
  phrase: `Phrase ${n}.`,
  dictionary: 'mot — word',
  translations: n === 1 ? { en: 'Phrase one.', 'pt-BR': 'Frase um.' } : {},
  clip: `${n}.mp3`,
  file: `${n}.clip`,
  error: null,
  duration_ms: 1200,
  type: 'mp3',
  ...changes,
});

const clips = (): ChapterManifest => ({
  format: 'tsv',
  rows: [row(1), row(2, { clip: 'x.mp3', file: null, error: 'No clip named "x.mp3" was uploaded.' })],
  errors: ['The clip "y.mp3" matches no row of the text.'],
});

const recorded = (): ChapterManifest => ({
  format: 'blocks',
  recording: { file: 'recording.mp3', type: 'mp3', duration_ms: 5000, cuts: [2500] },
  notice: null,
  errors: [],
  rows: [
    row(1, { clip: null, file: null, type: undefined, duration_ms: null }),
    row(2, { clip: null, file: null }),
  ],
});

const book = (): BookManifest => ({
  code: 'le-petit-voyage',
  book: {
    title: 'Le Petit Voyage',
    author: 'Claire Dubois',
    narrated_by: 'Marc Lefèvre',
    hours: 2,
    minutes: 35,
    description: 'A short trip to Lyon.',
    difficulty: 'Easy',
    sample_text: 'Line one.',
    language: null,
    cefr: 'A2',
  },
  fieldErrors: {},
  cover: { name: 'cover.webp', file: '2.part' },
  sample: { name: 'sample.mp3', file: '3.part', duration_ms: 4000 },
  chapters: [{ folder: 'chapters/001', chapter_no: 1, title: 'Le départ', rows: [row(1)], errors: [] }],
  errors: [],
});

/** Any JSON at all, as a hand edit of the row could leave it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests write wrong types on purpose
type Edited = Record<string, any>;

/** The manifest as JSON, after `edit` changed the parsed copy. */
function edited<T>(manifest: T, edit: (json: Edited) => void): string {
  const json = JSON.parse(JSON.stringify(manifest)) as Edited;
  edit(json);
  return JSON.stringify(json);
}

describe(readChapterManifest.name, () => {
  it('reads back what staging writes, with clips or from a recording', () => {
    expect(readChapterManifest(JSON.stringify(clips()))).toEqual(clips());
    const fromRecording = recorded();
    delete fromRecording.rows[0].type;
    expect(readChapterManifest(JSON.stringify(fromRecording))).toEqual(fromRecording);
    // An older preview's notice, or none at all.
    const noticed = { ...recorded(), notice: 'Only 0 pauses were found: the other boundaries are guesses.' };
    expect(readChapterManifest(JSON.stringify(noticed)).notice).toBe(noticed.notice);
    const without = recorded();
    delete without.notice;
    expect(readChapterManifest(JSON.stringify(without))).not.toHaveProperty('notice');
    // Staged before translations: none.
    const older = edited(clips(), (m) => delete m.rows[0].translations);
    expect(readChapterManifest(older).rows[0].translations).toEqual({});
  });

  it.each([
    ['not JSON', '{"format": "tsv", "rows": [', 'the manifest is not JSON'],
    ['not an object', '[1, 2]', 'the manifest is not an object'],
    ['rows that are not a list', edited(clips(), (m) => (m.rows = { 0: m.rows[0] })), 'rows is not a list'],
    [
      'a row that is not an object',
      edited(clips(), (m) => (m.rows[1] = 'Row 2')),
      'rows[1] is not an object',
    ],
    [
      'a row number that is not whole',
      edited(clips(), (m) => (m.rows[0].n = 1.5)),
      'rows[0].n is not a whole',
    ],
    ['a row number of 0', edited(clips(), (m) => (m.rows[0].n = 0)), 'rows[0].n is not a whole number of 1'],
    ['a row number given as text', edited(clips(), (m) => (m.rows[0].n = '1')), 'rows[0].n'],
    [
      'a phrase that is not text',
      edited(clips(), (m) => (m.rows[0].phrase = null)),
      'rows[0].phrase is not text',
    ],
    ['a missing glossary', edited(clips(), (m) => delete m.rows[0].dictionary), 'rows[0].dictionary'],
    [
      'a translation under a tag that is not canonical',
      edited(clips(), (m) => (m.rows[0].translations = { 'pt-br': 'x' })),
      'rows[0].translations.pt-br is not a canonical language tag',
    ],
    [
      'a translation that is not text',
      edited(clips(), (m) => (m.rows[0].translations = { en: 3 })),
      'rows[0].translations.en is not text',
    ],
    [
      'an infinite duration',
      JSON.stringify(clips()).replace('"duration_ms":1200', '"duration_ms":1e999'),
      'rows[0].duration_ms',
    ],
    ['a negative duration', edited(clips(), (m) => (m.rows[0].duration_ms = -1)), 'rows[0].duration_ms'],
    [
      'a file that is a path',
      edited(clips(), (m) => (m.rows[0].file = '../../media/lines/x.mp3')),
      'rows[0].file',
    ],
    ['an unknown audio type', edited(clips(), (m) => (m.rows[0].type = 'flac')), 'rows[0].type'],
    [
      'a ready row without its clip',
      edited(clips(), (m) => (m.rows[0].file = null)),
      'rows[0] has no problem but no staged clip',
    ],
    ['a ready row without its type', edited(clips(), (m) => delete m.rows[0].type), 'rows[0] has no problem'],
    ['an error that is not text', edited(clips(), (m) => (m.rows[1].error = true)), 'rows[1].error'],
    [
      'errors that are not texts',
      edited(clips(), (m) => (m.errors = [{ message: 'x' }])),
      'errors[0] is not text',
    ],
    ['a missing format', edited(clips(), (m) => delete m.format), 'format is not text'],
    ['a recording of null', edited(recorded(), (m) => (m.recording = null)), 'recording is not an object'],
    [
      'a recording without cuts',
      edited(recorded(), (m) => delete m.recording.cuts),
      'recording.cuts is not a list',
    ],
    [
      'a cut that is not a time',
      edited(recorded(), (m) => (m.recording.cuts = ['2500'])),
      'recording.cuts[0]',
    ],
    [
      'a recording file that is a path',
      edited(recorded(), (m) => (m.recording.file = '/etc/passwd')),
      'recording.file',
    ],
    ['a notice that is not text', edited(recorded(), (m) => (m.notice = 3)), 'notice is not text'],
  ])('refuses %s', (_, json, where) => {
    expect(() => readChapterManifest(json)).toThrow(DamagedImport);
    expect(() => readChapterManifest(json)).toThrow(`The import's manifest is damaged: ${where}`);
  });
});

describe(readBookManifest.name, () => {
  it('reads back what staging writes, ready or with problems', () => {
    expect(readBookManifest(JSON.stringify(book()))).toEqual(book());
    // A book.json that could not be read: every field null, the problem said on the whole import.
    const unread: BookManifest = {
      ...book(),
      code: null,
      book: Object.fromEntries(
        Object.keys(book().book).map((field) => [field, null]),
      ) as BookManifest['book'],
      fieldErrors: {
        book_image: ['The zip holds no cover: add cover.jpg, cover.png or cover.webp next to book.json.'],
      },
      cover: null,
      errors: ['book.json is not valid JSON.'],
      chapters: [
        {
          folder: 'chapters/x',
          chapter_no: null,
          title: '',
          rows: [],
          errors: ['chapter.json is not valid JSON.'],
        },
      ],
    };
    expect(readBookManifest(JSON.stringify(unread))).toEqual(unread);
    // A field as book.json wrote it, when its problem is said.
    const wrong = {
      ...book(),
      book: { ...book().book, hours: 'two' },
      fieldErrors: { hours: ['The hours must be a whole number.'] },
    };
    expect(readBookManifest(JSON.stringify(wrong))).toEqual(wrong);
  });

  it.each([
    ['not JSON', 'null', 'the manifest is not an object'],
    [
      'a code that is no book code',
      edited(book(), (m) => (m.code = '../le-petit-voyage')),
      'code is not a book code',
    ],
    ['a missing book field', edited(book(), (m) => delete m.book.language), 'book.language is missing'],
    [
      'field errors that are not lists',
      edited(book(), (m) => (m.fieldErrors = { title: 'Required.' })),
      'fieldErrors.title',
    ],
    ['a cover file that is a path', edited(book(), (m) => (m.cover.file = 'x/../../y')), 'cover.file'],
    [
      'a sample whose length is text',
      edited(book(), (m) => (m.sample.duration_ms = '4000')),
      'sample.duration_ms',
    ],
    ['chapters that are not a list', edited(book(), (m) => (m.chapters = null)), 'chapters is not a list'],
    [
      'a chapter number of 0',
      edited(book(), (m) => (m.chapters[0].chapter_no = 0)),
      'chapters[0].chapter_no',
    ],
    [
      'a chapter row without its clip',
      edited(book(), (m) => (m.chapters[0].rows[0].file = null)),
      'chapters[0].rows[0] has no problem',
    ],
    // A book with no problem left must be one the commit can create.
    [
      'a ready book whose title is not text',
      edited(book(), (m) => (m.book.title = 7)),
      'book.title is not text',
    ],
    ['a ready book whose hours are not whole', edited(book(), (m) => (m.book.hours = 2.5)), 'book.hours'],
    [
      'a ready book of an unknown difficulty',
      edited(book(), (m) => (m.book.difficulty = 'Expert')),
      'book.difficulty',
    ],
    ['a ready book without its cover', edited(book(), (m) => (m.cover = null)), 'cover is missing'],
    ['a ready book without its sample', edited(book(), (m) => (m.sample = null)), 'sample is missing'],
    [
      'a ready chapter without a number',
      edited(book(), (m) => (m.chapters[0].chapter_no = null)),
      'chapters[0].chapter_no is missing',
    ],
  ])('refuses %s', (_, json, where) => {
    expect(() => readBookManifest(json)).toThrow(DamagedImport);
    expect(() => readBookManifest(json)).toThrow(`The import's manifest is damaged: ${where}`);
  });

  it('gives the commit typed fields, files and numbers', () => {
    const manifest = readBookManifest(JSON.stringify(book()));
    expect(bookProblems(manifest)).toEqual([]);
    expect(readyBook(manifest)).toEqual({
      code: 'le-petit-voyage',
      fields: book().book,
      cover: { name: 'cover.webp', file: '2.part' },
      sample: { name: 'sample.mp3', file: '3.part', duration_ms: 4000 },
      chapters: [
        {
          title: 'Le départ',
          chapter_no: 1,
          rows: [
            {
              phrase: 'Phrase 1.',
              dictionary: 'mot — word',
              translations: { en: 'Phrase one.', 'pt-BR': 'Frase um.' },
              file: '1.clip',
            },
          ],
        },
      ],
    });
  });

  it('reads a book staged before CEFR levels existed as a book without a level', () => {
    const older = book();
    delete (older.book as Partial<typeof older.book>).cefr;
    expect(readyBook(readBookManifest(JSON.stringify(older))).fields.cefr).toBeNull();
    const wrong = edited(book(), (json) => (json.book.cefr = 'B3'));
    expect(() => readyBook(readBookManifest(wrong))).toThrow('book.cefr is not a CEFR level');
  });
});
