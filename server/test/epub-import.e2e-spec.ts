import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { BooksRepository } from '../content/catalogue/repository/books.repository';
import { decodedLengthUs } from '../publishing/formats/audio-measures';
import { EpubExport } from '../publishing/formats/epub/epub-export';
import type { BookImportResponse } from '../publishing/imports/book-imports.dto';
import { MAX_EPUB_PARS } from '../publishing/imports/epub-reader';
import { splitGlossary } from '../content/catalogue/glossary';
import { DemoSeedService } from '../seed/demo-seed.service';
import { StagedImport } from '../publishing/imports/staged-import.entity';
import { ApiClient, newAdmin } from './api-client';
import { mediaBytes, mediaFiles, stagedImports } from './fixtures';
import { startServer, type TestServer } from './harness';
import { makeZip, renameEntry, type ZipItem } from './zips';

type Preview = { data: BookImportResponse };
type Phrases = {
  data: { phrases: Array<{ phrase: string; dictionary: string; line_audio: string }> };
};
type Chapters = { data: { chapters: Array<{ id: number; title: string; chapter_no: number }> } };

const MIME = 'application/epub+zip';
/** One character, two UTF-16 units: a cut between them would leave half a surrogate pair. */
const EMOJI = '😀';
const MIMETYPE: ZipItem = { name: 'mimetype', data: Buffer.from(MIME), store: true };
const CONTAINER = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`;

interface Par {
  text?: string;
  audio?: string;
  begin?: string;
  end?: string;
}
interface Chapter {
  /** File names in OEBPS/: ch1 gives ch1.xhtml and ch1.smil. */
  id: string;
  title: string;
  body: string;
  pars: Par[];
  /** Wraps the pars in a nested <seq>, as books with sections do. */
  nested?: boolean;
  /** The SMIL file as is, instead of one made from `pars`. */
  rawSmil?: string;
}

const xhtml = (title: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>${title}</title></head><body>${body}</body></html>`;

function smil(chapter: Chapter): string {
  const pars = chapter.pars
    .map(
      (par) =>
        `<par>${par.text === undefined ? '' : `<text src="${par.text}"/>`}${
          par.audio === undefined
            ? ''
            : `<audio src="${par.audio}"${par.begin === undefined ? '' : ` clipBegin="${par.begin}"`}${
                par.end === undefined ? '' : ` clipEnd="${par.end}"`
              }/>`
        }</par>`,
    )
    .join('\n');
  const body = chapter.nested ? `<seq id="s1" epub:textref="${chapter.id}.xhtml">${pars}</seq>` : pars;
  return `<?xml version="1.0" encoding="UTF-8"?>
<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
<body>${body}</body></smil>`;
}

interface Book {
  chapters: Chapter[];
  audio: Record<string, Buffer>;
  cover?: Buffer;
  /** Audio files the package lists but the zip leaves out. */
  missing?: string[];
  opfHead?: string;
  /** More of the package's <metadata>. */
  metadata?: string;
  /** The dc:description, as written in the package (escaped markup). */
  description?: string;
  /** Zip entries left out (their path in the zip). */
  omit?: string[];
  mimetype?: string;
  overlays?: boolean;
}

/** A read-along EPUB 3 as Storyteller makes them: one audio file per chapter, SMIL pars cutting it. */
function epub(book: Book): Promise<Buffer> {
  const overlays = book.overlays ?? true;
  const audioNames = [...Object.keys(book.audio), ...(book.missing ?? [])];
  const items = [
    '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    '<item id="cover" href="images/cover.png" media-type="image/png" properties="cover-image"/>',
    ...book.chapters.flatMap((chapter) => [
      `<item id="${chapter.id}" href="${chapter.id}.xhtml" media-type="application/xhtml+xml"${
        overlays ? ` media-overlay="${chapter.id}-smil"` : ''
      }/>`,
      `<item id="${chapter.id}-smil" href="${chapter.id}.smil" media-type="application/smil+xml"/>`,
    ]),
    ...audioNames.map((name, i) => `<item id="a${i}" href="${name}" media-type="audio/mpeg"/>`),
  ];
  const opf = `<?xml version="1.0" encoding="UTF-8"?>${book.opfHead ?? ''}
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id" prefix="media: http://www.idpf.org/epub/vocab/overlays/#">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
  <dc:identifier id="id">urn:uuid:1b0c1d1e-0000-4000-8000-000000000001</dc:identifier>
  <dc:title>Der Leuchtturm</dc:title>
  <dc:creator id="c1">Anna Weiß</dc:creator>
  <dc:language>DE-de</dc:language>
  <dc:description>${book.description ?? '&lt;p&gt;Ein Sommer am Meer.&lt;/p&gt;'}</dc:description>
  <meta property="media:narrator">Jonas Berg</meta>
  <meta property="media:active-class">-epub-media-overlay-active</meta>${book.metadata ?? ''}
</metadata>
<manifest>${items.join('\n')}</manifest>
<spine><itemref idref="nav"/>${book.chapters.map((c) => `<itemref idref="${c.id}"/>`).join('')}</spine>
</package>`;
  const nav = xhtml(
    'Contents',
    `<nav epub:type="toc"><ol>${book.chapters
      .map((c) => `<li><a href="${c.id}.xhtml">${c.title}</a></li>`)
      .join('')}</ol></nav>`,
  );
  const mimetype = book.mimetype === undefined ? MIMETYPE : { ...MIMETYPE, data: Buffer.from(book.mimetype) };
  const entries: ZipItem[] = [
    mimetype,
    { name: 'META-INF/container.xml', data: Buffer.from(CONTAINER) },
    { name: 'OEBPS/content.opf', data: Buffer.from(opf) },
    { name: 'OEBPS/nav.xhtml', data: Buffer.from(nav) },
    { name: 'OEBPS/images/cover.png', data: book.cover ?? COVER },
    ...book.chapters.flatMap((chapter) => [
      { name: `OEBPS/${chapter.id}.xhtml`, data: Buffer.from(xhtml(chapter.title, chapter.body)) },
      { name: `OEBPS/${chapter.id}.smil`, data: Buffer.from(chapter.rawSmil ?? smil(chapter)) },
    ]),
    ...Object.entries(book.audio).map(([name, data]) => ({ name: `OEBPS/${name}`, data })),
  ];
  return makeZip(entries.filter((entry) => !book.omit?.includes(entry.name)));
}

const zipForm = (zip: Buffer) => {
  const data = new FormData();
  data.set('zip', new Blob([zip]), 'book.epub');
  return data;
};

const dir = mkdtempSync(join(tmpdir(), 'epub-import-'));
function ffmpeg(args: string[], out: string): Buffer {
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, join(dir, out)]);
  return readFileSync(join(dir, out));
}
const tone = (seconds: number, freq: number, out: string) =>
  ffmpeg(
    ['-f', 'lavfi', '-i', `sine=frequency=${freq}:duration=${seconds}:sample_rate=44100`, '-b:a', '64k'],
    out,
  );
const COVER = ffmpeg(['-f', 'lavfi', '-i', 'color=c=navy:s=300x450', '-frames:v', '1'], 'cover.png');
const CH1 = tone(6, 440, 'ch1.mp3');
const CH2 = tone(2.5, 660, 'ch2.mp3');
/** Decoded length of a file's bytes, in ms, as the import measures it. */
async function lengthMs(bytes: Buffer): Promise<number> {
  const file = join(dir, `measure-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, bytes);
  try {
    return (await decodedLengthUs(file)) / 1000;
  } finally {
    rmSync(file, { force: true });
  }
}

const CH1_BODY = `<h1>Erstes Kapitel</h1>
<p id="p1">Der   Wind
  weht.</p>
<p id="p2">Das <em>Meer</em> ist still.<a epub:type="noteref" href="#n2">*</a></p>
<aside id="n2" epub:type="footnote"><p>das Meer — the sea</p><p>still — calm</p></aside>
<p id="p3">Die Nacht kommt.</p>`;

/** The good book: chapter 1 cut in three (clock values of every kind), chapter 2 one whole file. */
const goodBook = (ch2End: string): Book => ({
  chapters: [
    {
      id: 'ch1',
      title: 'Am Strand',
      body: CH1_BODY,
      nested: true,
      pars: [
        { text: 'ch1.xhtml#p1', audio: 'audio/ch1.mp3', begin: '0:00:00.000', end: '1500ms' },
        { text: 'ch1.xhtml#p2', audio: 'audio/ch1.mp3', begin: '00:01.500', end: '3.2s' },
        { text: 'ch1.xhtml#p3', audio: 'audio/ch1.mp3', begin: '3.2', end: '0.1min' },
      ],
    },
    {
      id: 'ch2',
      title: 'Im Turm',
      body: '<p id="q1">Oben brennt das Licht.</p>',
      pars: [{ text: 'ch2.xhtml#q1', audio: 'audio/ch2.mp3', begin: '0s', end: ch2End }],
    },
  ],
  audio: { 'audio/ch1.mp3': CH1, 'audio/ch2.mp3': CH2 },
});

describe('Importing a read-along EPUB', () => {
  let server: TestServer;
  let admin: ApiClient;

  const bookCount = async () =>
    Number(
      (
        await server.app
          .get(DataSource)
          .query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM books')
      )[0].n,
    );

  const importCount = async () =>
    Number(
      (
        await server.app
          .get(DataSource)
          .query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM imports')
      )[0].n,
    );

  /**
   * Stages an EPUB that must not become a book: the answer, with nothing written to the catalogue or
   * media, and, when refused outright, nothing staged either (no files, no row).
   */
  async function refused(zip: Buffer) {
    const [books, media] = [await bookCount(), await mediaFiles(server)];
    const [staged, imports] = [await stagedImports(server), await importCount()];
    const res = await admin.post<Preview & { message: string; errors?: Record<string, string[]> }>(
      'admin/book/import',
      zipForm(zip),
    );
    expect(res.status).not.toBe(500);
    if (res.status !== 200)
      expect([await stagedImports(server), await importCount()]).toEqual([staged, imports]);
    if (res.status === 200) {
      const commit = await admin.post<{ message: string }>(`admin/import/${res.body.data.import_id}/commit`);
      expect(commit.status).toBe(422);
      expect(commit.body.message).toMatch(/^The book has (a problem|\d+ problems): /);
    }
    expect(await bookCount()).toBe(books);
    expect(await mediaFiles(server)).toEqual(media);
    return res;
  }
  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('previews chapters and phrases from the overlays, and commits them as a book with clips cut to their ranges', async () => {
    const ch2Ms = await lengthMs(CH2);
    const zip = await epub(goodBook(`${(ch2Ms / 1000).toFixed(3)}s`));
    const staged = await admin.post<Preview>('admin/book/import', zipForm(zip));
    expect(staged.status).toBe(200);
    const preview = staged.body.data;
    expect(preview).toEqual({
      import_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'book',
      book: {
        book_code: null,
        title: 'Der Leuchtturm',
        author: 'Anna Weiß',
        narrated_by: 'Jonas Berg',
        hours: 0,
        minutes: 1,
        description: 'Ein Sommer am Meer.',
        difficulty: 'Medium',
        sample_text: 'Der Wind weht. Das Meer ist still. Die Nacht kommt.',
        language: 'de-DE',
        cefr: null,
        book_image: 'OEBPS/images/cover.png',
        sample_audio: 'OEBPS/audio/ch1.mp3 0:00.000–0:01.500',
        sample_duration_ms: expect.any(Number),
        errors: {},
      },
      chapters: [
        {
          folder: 'OEBPS/ch1.xhtml',
          chapter_no: 1,
          title: 'Am Strand',
          rows: 3,
          duration_ms: expect.any(Number),
          errors: [],
        },
        {
          folder: 'OEBPS/ch2.xhtml',
          chapter_no: 2,
          title: 'Im Turm',
          rows: 1,
          duration_ms: expect.any(Number),
          errors: [],
        },
      ],
      errors: [],
      expires_at: expect.any(String),
    });
    expect(Math.abs(preview.chapters[0].duration_ms - 6000)).toBeLessThan(3 * 30);
    expect(Math.abs(preview.chapters[1].duration_ms - ch2Ms)).toBeLessThan(30);
    expect(Math.abs(preview.book.sample_duration_ms! - 1500)).toBeLessThan(30);

    const before = await bookCount();
    const commit = await admin.post<{ data: { book_code: string } }>(
      `admin/import/${preview.import_id}/commit`,
    );
    expect(commit.status).toBe(200);
    expect(commit.body.data.book_code).toBe('der-leuchtturm');
    expect(await bookCount()).toBe(before + 1);
    const book = (
      await admin.get<{ data: { id: number; sample_audio: string } }>('admin/book/der-leuchtturm')
    ).body.data;
    const chapters = (await admin.get<Chapters>(`admin/chapter?book_id=${book.id}`)).body.data.chapters;
    expect(chapters.map(({ title, chapter_no }) => ({ title, chapter_no }))).toEqual([
      { title: 'Am Strand', chapter_no: 1 },
      { title: 'Im Turm', chapter_no: 2 },
    ]);
    const phrases = await Promise.all(
      chapters.map(
        async (chapter) =>
          (await admin.get<Phrases>(`admin/phrase?chapter_id=${chapter.id}`)).body.data.phrases,
      ),
    );
    expect(phrases.map((list) => list.map(({ phrase, dictionary }) => ({ phrase, dictionary })))).toEqual([
      [
        { phrase: 'Der Wind weht.', dictionary: '' },
        { phrase: 'Das Meer ist still.', dictionary: 'das Meer — the sea\nstill — calm' },
        { phrase: 'Die Nacht kommt.', dictionary: '' },
      ],
      [{ phrase: 'Oben brennt das Licht.', dictionary: '' }],
    ]);
    const clips = await Promise.all(phrases.flat().map((phrase) => mediaBytes(server, phrase.line_audio)));
    const lengths = await Promise.all(clips.map(lengthMs));
    [1500, 1700, 2800, ch2Ms].forEach((expected, i) =>
      expect(Math.abs(lengths[i] - expected)).toBeLessThan(30),
    );
    // A phrase spanning its whole file is that file, byte for byte.
    expect(clips[3].equals(CH2)).toBe(true);
    expect(Math.abs((await lengthMs(await mediaBytes(server, book.sample_audio))) - 1500)).toBeLessThan(30);
  });

  it('refuses an EPUB without media overlays whole', async () => {
    const res = await refused(await epub({ ...goodBook('2s'), overlays: false }));
    expect(res.status).toBe(422);
    expect(res.body.errors?.zip?.[0]).toMatch(/^The EPUB has no media overlays/);
  });

  it('refuses a document that declares XML entities (billion laughs) before reading it', async () => {
    const laughs = `<!DOCTYPE package [<!ENTITY lol "lol">${Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i ? i : ''};`.repeat(10)}">`,
    ).join('')}]>`;
    const res = await refused(await epub({ ...goodBook('2s'), opfHead: laughs }));
    expect([res.status, res.body.errors?.zip]).toEqual([
      422,
      [
        'OEBPS/content.opf declares XML entities (<!ENTITY>): the EPUB is refused, as entity expansion can make a small file enormous.',
      ],
    ]);
  });

  it('refuses a zip bomb and a path leaving the folder while extracting', async () => {
    const bomb = await makeZip([MIMETYPE, { name: 'OEBPS/zeros.bin', data: Buffer.alloc(40 * 1024 * 1024) }]);
    const res = await refused(bomb);
    expect([res.status, res.body.message]).toEqual([
      413,
      '"OEBPS/zeros.bin" expands more than 100 times: the zip is refused as a zip bomb.',
    ]);
    const zip = renameEntry(await epub(goodBook('2s')), 'OEBPS/audio/ch2.mp3', '../../audio/ch2.mp3');
    const unsafe = await refused(zip);
    expect([unsafe.status, unsafe.body.errors?.zip]).toEqual([
      422,
      ['The zip holds an unsafe path: invalid relative path: ../../audio/ch2.mp3.'],
    ]);
  });

  it('lists references outside the book, missing files and overlong clips as problems, and cuts nothing', async () => {
    const book = goodBook('2s');
    book.chapters[0].pars = [
      { text: 'ch1.xhtml#p1', audio: '../../../etc/passwd', begin: '0s', end: '1s' },
      { text: 'http://example.com/ch1.xhtml#p2', audio: 'audio/ch1.mp3', begin: '0s', end: '1s' },
      { text: 'ch1.xhtml#p3', audio: 'audio/gone.mp3', begin: '0s', end: '1s' },
      { text: 'ch1.xhtml#p3', audio: 'audio/ch1.mp3', begin: '0s', end: '61s' },
      { audio: 'audio/ch1.mp3', begin: '0s', end: '1s' },
      { text: 'ch1.xhtml#p1' },
      { text: 'ch1.xhtml#nowhere', audio: '/abs/ch1.mp3' },
    ];
    const res = await refused(await epub({ ...book, missing: ['audio/gone.mp3'] }));
    expect(res.status).toBe(200);
    const rows = [
      'Row 1: Its audio "../../../etc/passwd" points outside the book.',
      'Row 2: Its text "http://example.com/ch1.xhtml#p2" points outside the book.',
      'Row 3: Its audio OEBPS/audio/gone.mp3 is missing from the EPUB.',
      'Row 4: Its clip lasts 61.0 s; the most for a phrase is 60 s.',
      'Row 5: The phrase has no text (no <text src> in its <par>).',
      'Row 6: The phrase has no audio (no <audio src> in its <par>).',
      'Row 7: Its audio "/abs/ch1.mp3" points outside the book.',
    ];
    expect(res.body.data.chapters.map((chapter) => chapter.errors)).toEqual([rows, []]);
    expect(res.body.data.errors).toEqual(rows.map((problem) => `OEBPS/ch1.xhtml: ${problem}`));
    // Nothing was cut: the stage holds only what the zip held.
    const staged = await server.app
      .get(DataSource)
      .getRepository(StagedImport)
      .findOneByOrFail({ id: res.body.data.import_id });
    expect(staged.manifest).not.toMatch(/epub-\d+\./);
  });

  it('lists a control character in a phrase, a glossary, a chapter title or the metadata where it is, and commits nothing', async () => {
    const book = goodBook('2s');
    book.chapters[0].title = 'Am&#x7F; Strand';
    book.chapters[0].body = CH1_BODY.replace('Der   Wind', 'Der &#xFFFE;Wind')
      .replace('the sea', 'the\u0001 sea')
      .replace('Die Nacht', 'Die\u0000 Nacht');
    book.metadata = '<dc:creator>Ben&#1;</dc:creator><meta property="media:narrator">Jo&#x1B;nas</meta>';
    const res = await refused(await epub(book));
    expect(res.status).toBe(200);
    expect(res.body.data.book.errors).toEqual({
      author: ['The author field contains a control character (U+0001), which text cannot hold.'],
      narrated_by: ['The narrated by field contains a control character (U+001B), which text cannot hold.'],
    });
    expect(res.body.data.chapters.map((chapter) => chapter.errors)).toEqual([
      [
        'Its title contains a control character (U+007F), which text cannot hold.',
        'Row 1: The phrase contains a noncharacter (U+FFFE), which text cannot hold.',
        'Row 2: The glossary contains a control character (U+0001), which text cannot hold.',
        'Row 3: The phrase contains a NUL character, which text cannot hold.',
      ],
      [],
    ]);
  });

  it('cuts a long chapter title, author and narrator list and description before an emoji, never inside it, and commits', async () => {
    const book = goodBook('2s');
    // Each has an emoji (two UTF-16 units) where the cut falls: 'Anna Weiß, ' and 'Jonas Berg, ' come first.
    book.chapters[0].title = `${'T'.repeat(198)}${EMOJI} and more`;
    book.metadata = `<dc:creator>${'C'.repeat(187)}${EMOJI}x</dc:creator><meta property="media:narrator">${'N'.repeat(186)}${EMOJI}x</meta>`;
    book.description = `${'D'.repeat(4998)}${EMOJI} and more`;
    const staged = await admin.post<Preview>('admin/book/import', zipForm(await epub(book)));
    expect([staged.status, staged.body.data.errors]).toEqual([200, []]);
    const cut = {
      title: `${'T'.repeat(198)}…`,
      author: `Anna Weiß, ${'C'.repeat(187)}…`,
      narrated_by: `Jonas Berg, ${'N'.repeat(186)}…`,
      description: `${'D'.repeat(4998)}…`,
    };
    const commit = await admin.post<{ data: { book_code: string } }>(
      `admin/import/${staged.body.data.import_id}/commit`,
    );
    expect(commit.status).toBe(200);
    const stored = (
      await admin.get<{ data: { id: number; author: string; narrated_by: string; description: string } }>(
        `admin/book/${commit.body.data.book_code}`,
      )
    ).body.data;
    expect([stored.author, stored.narrated_by, stored.description]).toEqual([
      cut.author,
      cut.narrated_by,
      cut.description,
    ]);
    const chapters = (await admin.get<Chapters>(`admin/chapter?book_id=${stored.id}`)).body.data.chapters;
    expect(chapters.map((chapter) => chapter.title)).toEqual([cut.title, 'Im Turm']);
  });

  it('says a phrase or a glossary is too long when the cut falls inside an emoji', async () => {
    const book = goodBook('2s');
    book.chapters[0].body = CH1_BODY.replace(
      '<p>das Meer — the sea</p><p>still — calm</p>',
      `<p>${'g'.repeat(5000)}${EMOJI}</p>`,
    );
    book.chapters[1].body = `<p id="q1">${'p'.repeat(2000)}${EMOJI}</p>`;
    const res = await refused(await epub(book));
    expect(res.status).toBe(200);
    expect(res.body.data.chapters.map((chapter) => chapter.errors)).toEqual([
      ['Row 2: The glossary is longer than 5000 characters.'],
      ['Row 1: The phrase is longer than 2000 characters.'],
    ]);
  });

  it('refuses 100,000 phrases quickly, before reading or cutting them', async () => {
    const book = goodBook('2s');
    const par: Par = { text: 'ch2.xhtml#q1', audio: 'audio/ch2.mp3', begin: '0s', end: '1s' };
    book.chapters[1].pars = Array.from({ length: 100_000 }, () => par);
    const zip = await epub(book);
    const started = Date.now();
    const res = await refused(zip);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(res.body.data.errors).toEqual([
      'OEBPS/ch2.xhtml: Its media overlay has 100000 phrases; the most for a chapter is 2000.',
    ]);
  });

  it('refuses more than MAX_EPUB_PARS phrases across chapters, and counts <PAR> and <smil:par> as pars', async () => {
    const par: Par = { text: 'c0.xhtml#q1', audio: 'audio/ch2.mp3', begin: '0s', end: '1s' };
    const chapters: Chapter[] = Array.from({ length: 11 }, (_, i) => ({
      id: `c${i}`,
      title: `Teil ${i}`,
      body: '<p id="q1">Oben.</p>',
      pars: Array.from({ length: 2000 }, () => ({ ...par, text: `c${i}.xhtml#q1` })),
    }));
    const many = await refused(await epub({ chapters, audio: { 'audio/ch2.mp3': CH2 } }));
    expect([many.status, many.body.errors?.zip]).toEqual([
      422,
      [`The EPUB has more than ${MAX_EPUB_PARS} phrases (<par>), the most a book can import.`],
    ]);

    const book = goodBook('2s');
    const one = '<text src="ch2.xhtml#q1"/><audio src="audio/ch2.mp3" clipBegin="0s" clipEnd="1s"/>';
    book.chapters[1].rawSmil = `<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:smil="http://www.w3.org/ns/SMIL"><body>${`<PAR>${one}</PAR><smil:par>${one}</smil:par>`.repeat(1001)}</body></smil>`;
    const upper = await refused(await epub(book));
    expect(upper.body.data.errors).toEqual([
      'OEBPS/ch2.xhtml: Its media overlay has 2002 phrases; the most for a chapter is 2000.',
    ]);
  });

  it('lists a spine document missing from the zip, and refs leaving the book however spelled', async () => {
    const book = goodBook('2s');
    book.chapters[0].pars = [
      { text: 'ch1.xhtml#p1', audio: '%2e%2e/%2e%2e/%2e%2e/etc/passwd', begin: '0s', end: '1s' },
      { text: 'ch1.xhtml#p1', audio: '..\\..\\audio\\ch1.mp3', begin: '0s', end: '1s' },
      { text: 'ch1.xhtml#p1', audio: 'file:///etc/passwd', begin: '0s', end: '1s' },
      { text: 'ch1.xhtml#p1', audio: 'data:audio/mpeg;base64,AAAA', begin: '0s', end: '1s' },
    ];
    // A mimetype with a trailing newline is still an EPUB.
    const res = await refused(await epub({ ...book, omit: ['OEBPS/ch2.xhtml'], mimetype: `${MIME}\n` }));
    expect(res.status).toBe(200);
    expect(res.body.data.chapters.map((chapter) => chapter.errors)).toEqual([
      [
        'Row 1: Its audio "%2e%2e/%2e%2e/%2e%2e/etc/passwd" points outside the book.',
        'Row 2: Its audio "..\\..\\audio\\ch1.mp3" points outside the book.',
        'Row 3: Its audio "file:///etc/passwd" points outside the book.',
        'Row 4: Its audio "data:audio/mpeg;base64,AAAA" points outside the book.',
      ],
      [
        'Its document OEBPS/ch2.xhtml is missing from the EPUB.',
        'Row 1: Its text OEBPS/ch2.xhtml is missing from the EPUB.',
      ],
    ]);
  });

  it('lists unreadable, backwards, huge and too short clock values as problems', async () => {
    const book = goodBook('2s');
    const at = (begin: string, end: string): Par => ({
      text: 'ch1.xhtml#p1',
      audio: 'audio/ch1.mp3',
      begin,
      end,
    });
    book.chapters[0].pars = [
      at('2s', '1s'),
      at('0s', '9'.repeat(400)),
      at('1000000h', '1000000.5h'),
      at('1s', '1.0001s'),
    ];
    const res = await refused(await epub(book));
    expect(res.body.data.chapters[0].errors).toEqual([
      'Row 1: Its clip ends before it begins.',
      `Row 2: Its clip times are not SMIL clock values: clipBegin "0s", clipEnd "${'9'.repeat(120)}…".`,
      'Row 3: Its clip lasts 1800.0 s; the most for a phrase is 60 s.',
      'Row 4: Its clip lasts 0 ms; the least for a phrase is 20 ms.',
    ]);
  });

  it('refuses, before cutting, clips adding up to far more audio than the book holds', async () => {
    const book = goodBook('2s');
    // 40 clips of 2 s from one 2.5 s file: 80 s of clips from 2.5 s of audio.
    book.chapters[1].pars = Array.from({ length: 40 }, () => ({
      text: 'ch2.xhtml#q1',
      audio: 'audio/ch2.mp3',
      begin: '0s',
      end: '2s',
    }));
    const res = await refused(await epub(book));
    expect(res.status).toBe(422);
    expect(res.body.errors?.zip?.[0]).toMatch(
      /^The EPUB's clips would make more audio than the book's files hold/,
    );
  });

  it('reads a package of 20,000 creators and a glossary bomb with bounded work', async () => {
    const book = goodBook('2s');
    book.metadata = Array.from(
      { length: 20_000 },
      (_, i) => `<dc:creator id="x${i}">C${i}</dc:creator><meta refines="#x${i}" property="role">aut</meta>`,
    ).join('');
    const refs = '<a epub:type="noteref" href="#n9">*</a>'.repeat(2000);
    book.chapters[1].body = `<p id="q1">Oben${refs}</p><aside id="n9" epub:type="footnote">${'<p>Licht</p>'.repeat(20_000)}</aside>`;
    const res = await refused(await epub(book));
    expect(res.status).toBe(200);
    expect(res.body.data.book.author).toMatch(/^Anna Weiß, C0, C1, C2, .*…$/);
    expect(res.body.data.chapters[1].errors).toEqual(['Row 1: The glossary is longer than 5000 characters.']);
  });

  it('answers 503 with the command to install ffmpeg when the server has none to measure and cut clips', async () => {
    const zip = await epub(goodBook('2s'));
    const saved = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = join(dir, 'no-ffmpeg-here');
    try {
      const [books, media] = [await bookCount(), await mediaFiles(server)];
      const res = await admin.post<{ message: string }>('admin/book/import', zipForm(zip));
      expect([res.status, res.body.message]).toEqual([
        503,
        'Importing a read-along EPUB needs ffmpeg to cut its clips. Install it with: sudo apt-get install -y ffmpeg',
      ]);
      expect([await bookCount(), await mediaFiles(server)]).toEqual([books, media]);
    } finally {
      if (saved === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = saved;
    }
  });

  it('imports a demo book exported as EPUB with the same phrases, and clips of the same lengths', async () => {
    await server.app.get(DemoSeedService).seedOnce();
    const original = (await server.app.get(BooksRepository).byCode('der-leuchtturmwarter'))!;
    const { stream } = await server.app.get(EpubExport).stream(original, true);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const staged = await admin.post<Preview>('admin/book/import', zipForm(Buffer.concat(chunks)));
    expect([staged.status, staged.body.data.errors]).toEqual([200, []]);
    const commit = await admin.post<{ data: { book_code: string } }>(
      `admin/import/${staged.body.data.import_id}/commit`,
    );
    expect(commit.status).toBe(200);

    /** Each chapter's title and phrases, and every clip's decoded length. */
    async function contents(code: string) {
      const book = (await admin.get<{ data: { id: number } }>(`admin/book/${code}`)).body.data;
      const chapters = (await admin.get<Chapters>(`admin/chapter?book_id=${book.id}`)).body.data.chapters;
      const phrases = await Promise.all(
        chapters.map(
          async (chapter) =>
            (await admin.get<Phrases>(`admin/phrase?chapter_id=${chapter.id}`)).body.data.phrases,
        ),
      );
      return {
        chapters: chapters.map((chapter, i) => ({
          title: chapter.title,
          // A phrase's own line breaks become spaces in XHTML; the glossary's separators become " — ".
          phrases: phrases[i].map(({ phrase, dictionary }) => ({
            phrase: phrase.replace(/\s+/g, ' ').trim(),
            glossary: splitGlossary(dictionary),
          })),
        })),
        lengths: await Promise.all(
          phrases.flat().map(async (phrase) => lengthMs(await mediaBytes(server, phrase.line_audio))),
        ),
      };
    }
    const [before, after] = [await contents(original.bookCode), await contents(commit.body.data.book_code)];
    expect(after.chapters).toEqual(before.chapters);
    expect(before.chapters.flatMap((chapter) => chapter.phrases).length).toBeGreaterThan(5);
    expect(after.lengths).toHaveLength(before.lengths.length);
    after.lengths.forEach((ms, i) => expect(Math.abs(ms - before.lengths[i])).toBeLessThan(30));
  }, 120_000);
});
