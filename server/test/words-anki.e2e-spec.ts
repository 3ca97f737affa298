import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { withoutId3 } from '../platform/media/id3';
import { MediaService } from '../platform/media/media.service';
import { Phrase } from '../content/catalogue/entities/phrase.entity';
import { SavedWord } from '../learning/words/saved-word.entity';
import { ANKI_README } from '../learning/words/anki-export';
import { newCard } from '../learning/words/scheduler';
import { parseCsv } from './csv';
import yauzl from 'yauzl';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook, phraseIdsOf } from './books';
import { fixture, form, loseMedia, mediaBytes, wav } from './fixtures';
import { startServer, type TestServer } from './harness';
import { StripeStandIn } from './stripe-stand-in';
import { stripeEnv, webhooks } from './stripe-webhooks';
import { eventually } from './eventually';

type WordList = { data: Array<{ term: string; phrase: string; audio: string | null }> };

const HEADER = [
  '#separator:Comma',
  '#html:false',
  '#columns:Term,Meaning,Phrase,Book,Chapter,Audio,Source,Tags',
  '#tags column:8',
];
const BOOK = 'Le Petit Voyage';

/** Every entry of a zip, in order, read with yauzl (which checks the sizes against the headers). */
function unzip(bytes: Buffer): Promise<Array<{ name: string; data: Buffer }>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries: Array<{ name: string; data: Buffer }> = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        }),
      );
      zip.readEntry();
    });
  });
}

const run = promisify(execFile);

describe('Anki export of saved words', () => {
  let server: TestServer;
  const standIn = new StripeStandIn();
  const work = mkdtempSync(join(tmpdir(), 'anki-spec-'));
  let admin: ApiClient;
  let chapterIds: number[];
  const phraseIds: number[][] = [];
  const { setPlan } = webhooks(() => server);

  /** One more phrase in chapter 1, for a test of its own. */
  const addPhrase = async (
    phrase: string,
    dictionary: string,
    clip = fixture('clip.mp3'),
    file = 'clip.mp3',
  ) => {
    const res = await admin.post<{ data: { id: number } }>(
      'admin/phrase',
      form({ chapter_id: chapterIds[0], phrase, dictionary, line_audio: [clip, file] }),
    );
    if (res.status !== 200) throw new Error(res.text);
    return res.body.data.id;
  };

  /** The stored file behind a word's clip URL (signed or not). */
  /** A clip as the export gives it: the stored bytes, an MP3's without its ID3 tags (platform/media/id3.ts). */
  const storedClip = async (url: string) => {
    const bytes = await mediaBytes(server, url);
    if (!/\.mp3(\?|$)/.test(url)) return bytes;
    const out: Buffer[] = [];
    for await (const chunk of withoutId3(Readable.from([bytes]))) out.push(chunk as Buffer);
    return Buffer.concat(out);
  };

  /** Downloads the Anki export and reads it back: Anki's header lines, the rows and the other files. */
  async function ankiExport(client: ApiClient) {
    const res = await client.raw('user/words/export?format=anki');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="lingonovel-words-anki.zip"');
    const entries = await unzip(Buffer.from(await res.arrayBuffer()));
    expect(entries[0].name).toBe('lingonovel-words.csv');
    const csv = entries[0].data.toString('utf8');
    const lines = csv.split('\r\n');
    expect(lines.slice(0, HEADER.length)).toEqual(HEADER);
    expect(entries[1].name).toBe('README.txt');
    const files = new Map(entries.slice(2).map((entry) => [entry.name, entry.data]));
    // Each clip once.
    expect(files.size).toBe(entries.length - 2);
    return { csv, rows: parseCsv(csv).slice(HEADER.length), files };
  }

  const sound = (row: string[]) => /^\[sound:(.+)\]$/.exec(row[5])?.[1];

  beforeAll(async () => {
    server = await startServer(undefined, stripeEnv(await standIn.start()));
    admin = (await newAdmin(server)).client;
    ({ chapterIds } = await makeBook(admin));
    phraseIds.push(...(await phraseIdsOf(admin, chapterIds)));
  });
  afterAll(async () => {
    await server.close();
    await standIn.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('zips a CSV whose [sound:] names are the clips beside it, once each; locked clips only with a plan', async () => {
    const wavPhrase = await addPhrase('Le chat dort.', 'chat — cat', wav(), 'clip.wav');
    const { client, id } = await newMember(server);
    await setPlan(id, 'active');
    for (const [phrase, term] of [
      [phraseIds[1][0], 'au revoir'],
      [phraseIds[0][0], 'bonjour'],
      [phraseIds[0][0], 'au revoir'],
      [phraseIds[0][1], 'bonjour'],
      [wavPhrase, 'chat'],
    ] as const) {
      expect((await client.post('user/words', { phrase_id: phrase, term })).status).toBe(200);
    }
    const clips = new Map(
      await Promise.all(
        (await client.get<WordList>('user/words')).body.data.map(
          async (w) => [w.phrase, await storedClip(w.audio!)] as const,
        ),
      ),
    );

    const withPlan = await ankiExport(client);
    expect(withPlan.rows.map((row) => row.slice(0, 5))).toEqual([
      ['bonjour', 'hello', 'Bonjour. (1)', BOOK, '1'],
      ['au revoir', 'goodbye', 'Bonjour. (1)', BOOK, '1'],
      ['bonjour', 'hello', 'Au revoir. (1)', BOOK, '1'],
      ['chat', 'cat', 'Le chat dort.', BOOK, '1'],
      ['au revoir', 'goodbye', 'Bonjour. (2)', BOOK, '2'],
    ]);
    const names = withPlan.rows.map(sound);
    const phraseOf = [phraseIds[0][0], phraseIds[0][0], phraseIds[0][1], wavPhrase, phraseIds[1][0]];
    names.forEach((name, i) =>
      expect(name).toMatch(
        new RegExp(`^lingonovel-${phraseOf[i]}-[0-9a-f]{12}\\.${i === 3 ? 'wav' : 'mp3'}$`),
      ),
    );
    // Two words of one phrase share its clip.
    expect(names[0]).toBe(names[1]);
    expect([...withPlan.files.keys()].sort()).toEqual([...new Set(names)].sort());
    withPlan.rows.forEach((row, i) => expect(withPlan.files.get(names[i]!)).toEqual(clips.get(row[2])));
    // The fixture MP3's ID3 tag (a broken UTF-16 comment) stays home: ffprobe reads the clip without a word.
    const mp3 = join(work, names[0]!);
    writeFileSync(mp3, withPlan.files.get(names[0]!)!);
    expect(withPlan.files.get(names[0]!)!.subarray(0, 3).toString('latin1')).not.toBe('ID3');
    expect((await run('ffprobe', ['-v', 'error', '-hide_banner', mp3])).stderr).toBe('');

    // The same order as the CSV export (words of one phrase aside, which that export does not order).
    const csv = await client.raw('user/words/export?format=csv');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const csvRows = parseCsv((await csv.text()).replace(/^\uFEFF/, '')).slice(1);
    expect(csvRows.map((row) => row.slice(2, 5))).toEqual(withPlan.rows.map((row) => row.slice(2, 5)));

    await setPlan(id, 'past_due');
    const lapsed = await ankiExport(client);
    expect(lapsed.rows.map(sound)).toEqual([names[0], names[1], names[2], names[3], undefined]);
    expect(lapsed.rows[4].slice(0, 6)).toEqual(['au revoir', 'goodbye', 'Bonjour. (2)', BOOK, '2', '']);
    expect([...lapsed.files.keys()].sort()).toEqual([names[0], names[2], names[3]].sort());
  });

  it('writes cells for Anki: quoted, without a BOM or a formula guard, and a leading # kept as text', async () => {
    const phrase = await addPhrase('=SUM(1,2) "quoted"', '#tag — a, b');
    const { client } = await newMember(server);
    await client.post('user/words', { phrase_id: phrase, term: '#tag' });
    const { csv, rows } = await ankiExport(client);
    expect(csv.startsWith('#separator:Comma\r\n')).toBe(true);
    expect(csv.split('\r\n')[HEADER.length]).toMatch(
      /^"#tag","a, b","=SUM\(1,2\) ""quoted""",Le Petit Voyage,1,\[sound:/,
    );
    expect(rows[0].slice(0, 5)).toEqual(['#tag', 'a, b', '=SUM(1,2) "quoted"', BOOK, '1']);
  });

  it('leaves out a clip missing on disk, and still answers the rest', async () => {
    const phrase = await addPhrase('Merci.', 'merci — thanks');
    const { client } = await newMember(server);
    await client.post('user/words', { phrase_id: phraseIds[0][0], term: 'bonjour' });
    await client.post('user/words', { phrase_id: phrase, term: 'merci' });
    const words = (await client.get<WordList>('user/words')).body.data;
    const lost = words.find((w) => w.term === 'merci')!.audio!;
    await loseMedia(server, lost);
    const { rows, files } = await ankiExport(client);
    expect(rows.map((row) => [row[0], row[5] === '' ? 'no sound' : 'sound'])).toEqual([
      ['bonjour', 'sound'],
      ['merci', 'no sound'],
    ]);
    expect([...files.keys()]).toEqual([sound(rows[0])]);
  });

  it('explains in README.txt how to import the deck with its clips', () => {
    expect(ANKI_README).toContain('collection.media');
    expect(ANKI_README).toContain('File > Import');
    expect(ANKI_README).toContain('lingonovel-words.csv');
    // Windows' Notepad shows it line by line too.
    expect(ANKI_README.split('\r\n').length).toBe(ANKI_README.split('\n').length);
  });

  it('gives a member without words a zip holding only the header lines and the README', async () => {
    const { client } = await newMember(server);
    const res = await client.raw('user/words/export?format=anki');
    const entries = await unzip(Buffer.from(await res.arrayBuffer()));
    expect(entries.map((e) => [e.name, e.data.toString('utf8')])).toEqual([
      ['lingonovel-words.csv', HEADER.join('\r\n') + '\r\n'],
      ['README.txt', ANKI_README],
    ]);
  });

  it('runs one export per member and two in all, answering 429 with Retry-After meanwhile', async () => {
    // Clips are held back until `release`, so the exports stay open, their CSV already sent.
    const media = server.app.get(MediaService);
    const read = media.read.bind(media);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const spy = jest.spyOn(media, 'read').mockImplementation(async (path) => {
      await held;
      return read(path);
    });
    try {
      const members = await Promise.all([1, 2, 3].map(() => newMember(server)));
      for (const { client } of members)
        expect(
          (await client.post('user/words', { phrase_id: phraseIds[0][0], term: 'bonjour' })).status,
        ).toBe(200);
      const [first, second, third] = members.map((m) => m.client);
      const running = [await first.raw('user/words/export?format=anki')];
      expect(running[0].status).toBe(200);

      const again = await first.raw('user/words/export?format=anki');
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await again.json()).toEqual({
        message: 'Your Anki export is still being prepared. Please wait for it to finish.',
      });
      // The CSV export is small work, and is not held up.
      expect((await first.raw('user/words/export')).status).toBe(200);

      running.push(await second.raw('user/words/export?format=anki'));
      expect(running[1].status).toBe(200);
      const busy = await third.raw('user/words/export?format=anki');
      expect(busy.status).toBe(429);
      expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await busy.json()).toEqual({
        message: 'Too many Anki exports are being prepared right now. Please try again in a few seconds.',
      });

      // A client that hangs up gives its place back, as soon as the server sees the connection close.
      await running.pop()!.body!.cancel();
      let next = await third.raw('user/words/export?format=anki');
      await eventually(async () => {
        if (next.status !== 429) return true;
        next = await third.raw('user/words/export?format=anki');
        return false;
      }, 'the export slot to be given back');
      expect(next.status).toBe(200);
      running.push(next);

      release();
      for (const res of running) {
        const entries = await unzip(Buffer.from(await res.arrayBuffer()));
        expect(entries.map((entry) => entry.name)).toEqual([
          'lingonovel-words.csv',
          'README.txt',
          expect.stringMatching(/^lingonovel-\d+-[0-9a-f]{12}\.mp3$/),
        ]);
      }
      // Finished exports free their places.
      expect((await ankiExport(first)).rows).toHaveLength(1);
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('streams a deck of many words as a valid zip, each clip once', async () => {
    const { client, id } = await newMember(server);
    // Written straight to the tables: a few hundred phrases and words through the API take most of a minute.
    const db = server.app.get(DataSource);
    const model = await db.getRepository(Phrase).findOneByOrFail({ id: phraseIds[0][0] });
    const now = new Date();
    for (let i = 0; i < 250; i++) {
      const row = await db.getRepository(Phrase).insert({
        chapterId: model.chapterId,
        position: 1000 + i,
        phrase: `Bonjour ${i}.`,
        dictionary: 'bonjour — hello',
        audioPath: model.audioPath,
        audioMs: model.audioMs,
      });
      await db.getRepository(SavedWord).insert({
        userId: id,
        phraseId: Number(row.identifiers[0].id),
        term: 'bonjour',
        meaning: 'hello',
        createdAt: now,
        ...newCard(now),
      });
    }
    const { rows, files } = await ankiExport(client);
    expect(rows).toHaveLength(250);
    expect(files.size).toBe(250);
    expect(new Set(rows.map(sound))).toEqual(new Set(files.keys()));
    const clip = await storedClip((await client.get<WordList>('user/words?per_page=1')).body.data[0].audio!);
    // Buffer.equals: a deep toEqual of 250 clips compares them byte by byte, for many seconds.
    expect([...files.values()].filter((data) => !data.equals(clip))).toHaveLength(0);
  });

  it('keeps the CSV without a format, refuses an unknown format with a 422, and a visitor with a 401', async () => {
    const { client } = await newMember(server);
    for (const query of ['', '?format=csv']) {
      const res = await client.raw(`user/words/export${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="lingonovel-words.csv"');
      // text() would drop the BOM.
      expect(Buffer.from(await res.arrayBuffer()).toString('utf8')).toBe(
        '\uFEFFterm,meaning,phrase,book,chapter,audio URL,audio URL expires,kind,translation,source,dictionary\r\n',
      );
    }
    for (const query of ['format=bogus', 'format=', 'format=anki&format=csv']) {
      const res = await client.get(`user/words/export?${query}`);
      expect([query, res.status, res.body]).toEqual([
        query,
        422,
        {
          message: 'The format must be csv or anki.',
          errors: { format: ['The format must be csv or anki.'] },
        },
      ]);
    }
    const visitor = new ApiClient(server);
    for (const query of ['', '?format=anki']) {
      expect((await visitor.get(`user/words/export${query}`)).status).toBe(401);
    }
  });
});
