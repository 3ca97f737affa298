import { DataSource } from 'typeorm';
import { Book } from '../content/catalogue/entities/book.entity';
import yauzl from 'yauzl';
import { PhraseTranslation } from '../content/catalogue/entities/phrase-translation.entity';
import { PhraseMark } from '../learning/practice/phrase-mark.entity';
import { User } from '../accounts/users/user.entity';
import { DeletedWord } from '../learning/words/deleted-word.entity';
import { Access } from '../content/access/access.service';
import { SavedWord } from '../learning/words/saved-word.entity';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook, phraseIdsOf } from './books';
import { parseCsv } from './csv';
import { controlClock, MINUTE } from './clock';
import { chooseTranslation } from '../platform/common/translation-choice';
import { startServer, type TestServer } from './harness';

interface Card {
  id: number;
  phrase_id: number;
  kind: 'word' | 'phrase';
  term: string;
  meaning: string;
  phrase: string;
  glossary: Array<{ term: string; meaning: string }>;
  translation: { language: string; text: string } | null;
  translations: Record<string, string>;
  audio: string | null;
  state: number;
  reps: number;
  version: number;
}
type Marked = { data: { phrase_id: number; mark: string; card_id: number | null } };
type CardList = { data: Card[]; meta: { total: number } };
type Queue = { data: { cards: Card[] } };

const GLOSSARY = [
  { term: 'bonjour', meaning: 'hello' },
  { term: 'au revoir', meaning: 'goodbye' },
];

/** The text of the CSV inside an Anki export. */
function ankiCsv(bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('error', reject);
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
        }),
      );
      zip.readEntry();
    });
  });
}

describe('Marks and phrase cards', () => {
  let server: TestServer;
  let db: DataSource;
  let code: string;
  let admin: ApiClient;
  /** phrases[chapter index][position - 1]: chapter 1 is free, 2 and 3 are locked. */
  const phrases: number[][] = [];

  /** A member who reads German first, then English. */
  async function reader() {
    const member = await newMember(server);
    await db.getRepository(User).update({ id: member.id }, { speaks: 'de,en' });
    return member;
  }

  beforeAll(async () => {
    server = await startServer();
    db = server.app.get(DataSource);
    admin = (await newAdmin(server)).client;
    const made = await makeBook(admin);
    code = made.code;
    phrases.push(...(await phraseIdsOf(admin, made.chapterIds)));
    // Translations as the admin form stores them: the first phrase in English and German, the second in
    // English only.
    await db.getRepository(PhraseTranslation).insert([
      { phraseId: phrases[0][0], language: 'en', text: 'Hello. (1)' },
      { phraseId: phrases[0][0], language: 'de', text: 'Guten Tag. (1)' },
      { phraseId: phrases[0][1], language: 'en', text: 'Goodbye. (1)' },
      { phraseId: phrases[0][0], language: 'pt', text: 'Olá. (1)' },
      // In the book's own language (French): never what a card shows.
      { phraseId: phrases[0][1], language: 'fr', text: 'Adieu. (1)' },
    ]);
    await db.getRepository(Book).update({ bookCode: code }, { language: 'fr' });
  });
  afterAll(() => server.close());

  it('keeps one mark per member and phrase, the latest, even when sent at once', async () => {
    const { client, id } = await reader();
    const other = (await newMember(server)).client;
    const got = await client.put<Marked>('user/marks', { phrase_id: phrases[0][0], mark: 'got' });
    expect([got.status, got.body]).toEqual([
      200,
      { data: { phrase_id: phrases[0][0], mark: 'got', card_id: null } },
    ]);
    await client.put('user/marks', { phrase_id: phrases[0][1], mark: 'unsure' });
    await client.put('user/marks', { phrase_id: phrases[0][0], mark: 'lost' });
    await other.put('user/marks', { phrase_id: phrases[0][0], mark: 'got' });
    expect((await client.get(`user/marks?book_code=${code}&chapter_no=1`)).body).toEqual({
      data: [
        { phrase_id: phrases[0][0], mark: 'lost' },
        { phrase_id: phrases[0][1], mark: 'unsure' },
      ],
    });
    expect((await other.get(`user/marks?book_code=${code}&chapter_no=1`)).body).toEqual({
      data: [{ phrase_id: phrases[0][0], mark: 'got' }],
    });
    expect((await client.get(`user/marks?book_code=${code}&chapter_no=2`)).body).toEqual({ data: [] });

    const markOf = async () =>
      (await db.getRepository(PhraseMark).findBy({ userId: id, phraseId: phrases[0][1] })).map((r) => r.mark);
    // One after the other, the latest wins every time.
    for (const mark of ['got', 'lost', 'unsure', 'got']) {
      await client.put('user/marks', { phrase_id: phrases[0][1], mark });
      expect(await markOf()).toEqual([mark]);
    }
    // At once, from a "got": one row, holding one of the marks sent (never the earlier "got").
    const marks = ['unsure', 'lost', 'unsure', 'lost', 'lost', 'unsure', 'lost', 'unsure'];
    const answers = await Promise.all(
      marks.map((mark) => client.put<Marked>('user/marks', { phrase_id: phrases[0][1], mark })),
    );
    expect(answers.map((a) => a.status)).toEqual(marks.map(() => 200));
    const rows = await markOf();
    expect(rows).toHaveLength(1);
    expect(['unsure', 'lost']).toContain(rows[0]);
    // However they raced, one card for the phrase.
    expect(await db.getRepository(SavedWord).countBy({ userId: id, phraseId: phrases[0][1] })).toBe(1);
    await client.put('user/marks', { phrase_id: phrases[0][1], mark: 'got' });
    expect(
      (await db.getRepository(PhraseMark).findBy({ userId: id, phraseId: phrases[0][1] })).map((r) => r.mark),
    ).toEqual(['got']);
  });

  it('answers 401, 403 for a locked phrase, 404 for an unknown one, 422 for another mark', async () => {
    const { client } = await newMember(server);
    const body = { phrase_id: phrases[0][0], mark: 'lost' };
    expect((await new ApiClient(server).put('user/marks', body)).status).toBe(401);
    expect((await new ApiClient(server).get(`user/marks?book_code=${code}&chapter_no=1`)).status).toBe(401);
    expect((await client.put('user/marks', { phrase_id: phrases[1][0], mark: 'lost' })).status).toBe(403);
    expect((await client.put('user/marks', { phrase_id: 999_999, mark: 'lost' })).status).toBe(404);
    for (const phraseId of [[phrases[0][0]], null, -1, 0, 2 ** 31, 1.5, 'one', { id: 1 }]) {
      const res = await client.put<{ errors: Record<string, string[]> }>('user/marks', {
        phrase_id: phraseId,
        mark: 'lost',
      });
      expect([phraseId, res.status, Object.keys(res.body.errors ?? {})]).toEqual([
        phraseId,
        422,
        ['phrase_id'],
      ]);
    }
    for (const mark of ['maybe', '', 'LOST', 3, null]) {
      const res = await client.put('user/marks', { phrase_id: phrases[0][0], mark });
      expect([mark, res.status]).toEqual([mark, 422]);
    }
    const bad = await client.put('user/marks', { phrase_id: phrases[0][0], mark: 'maybe' });
    expect(bad.body).toEqual({
      message: 'The mark must be got, unsure or lost.',
      errors: { mark: ['The mark must be got, unsure or lost.'] },
    });
    expect((await client.get(`user/marks?book_code=${code}`)).status).toBe(422);
    // Nothing refused made a card.
    expect((await client.get<CardList>('user/words')).body.meta.total).toBe(0);
  });

  it('takes 120 marks a minute from a member, then 429 with Retry-After', async () => {
    const clock = controlClock(server);
    try {
      const { client } = await newMember(server);
      const send = (i: number) =>
        client.put('user/marks', { phrase_id: phrases[0][i % 2], mark: i % 3 ? 'got' : 'lost' });
      for (let i = 0; i < 120; i++) expect((await send(i)).status).toBe(200);
      const refused = await send(0);
      expect([refused.status, refused.body]).toEqual([
        429,
        { message: 'Too many marks sent. Please try again in a minute.' },
      ]);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
      clock.advance(MINUTE);
      expect((await send(0)).status).toBe(200);
    } finally {
      clock.restore();
    }
  });

  it('lets an administrator mark a locked phrase', async () => {
    const res = await admin.put<Marked>('user/marks', { phrase_id: phrases[1][0], mark: 'lost' });
    expect([res.status, res.body.data.card_id]).toEqual([200, expect.any(Number)]);
  });

  it('answers 404, not 500, for a phrase deleted between the access check and the write', async () => {
    const { client } = await reader();
    const access = server.app.get(Access);
    const realRequire = access.require.bind(access) as (...args: unknown[]) => Promise<unknown>;
    // The next phrase check of anyone (Access is shared): the phrase is deleted once it has passed.
    const deletedAfterCheck = () =>
      jest.spyOn(access, 'require').mockImplementationOnce((async (...args: unknown[]) => {
        const place = await realRequire(...args);
        const { phrase } = args[1] as { phrase: number };
        expect((await admin.delete(`admin/phrase/${phrase}`)).status).toBe(200);
        return place;
      }) as typeof access.require);
    const fresh = async () => (await phraseIdsOf(admin, (await makeBook(admin)).chapterIds))[0][0];
    const gone = { message: 'Phrase not found.' };
    try {
      const markedPhrase = await fresh();
      deletedAfterCheck();
      const mark = await client.put('user/marks', { phrase_id: markedPhrase, mark: 'lost' });
      expect([mark.status, mark.body]).toEqual([404, gone]);
      const savedPhrase = await fresh();
      deletedAfterCheck();
      const card = await client.post('user/words', { phrase_id: savedPhrase, kind: 'phrase' });
      expect([card.status, card.body]).toEqual([404, gone]);
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('gives a card the translation the reader would ask for: en-GB finds en, pt-BR pt, never the book’s own', async () => {
    const { client, id } = await newMember(server);
    await client.post('user/words', { phrase_id: phrases[0][0], kind: 'phrase' });
    await client.post('user/words', { phrase_id: phrases[0][1], kind: 'phrase' });
    const translations = async () =>
      Object.fromEntries(
        (await client.get<CardList>('user/words?kind=phrase')).body.data.map((card) => [
          card.phrase_id,
          card.translation,
        ]),
      );
    await db.getRepository(User).update({ id }, { speaks: 'en-GB' });
    expect(await translations()).toEqual({
      [phrases[0][0]]: { language: 'en', text: 'Hello. (1)' },
      [phrases[0][1]]: { language: 'en', text: 'Goodbye. (1)' },
    });
    // The exports say the same.
    const csv = parseCsv((await (await client.raw('user/words/export')).text()).replace(/^\uFEFF/, ''));
    expect(
      csv
        .slice(1)
        .map((row) => row[8])
        .sort(),
    ).toEqual(['Goodbye. (1)', 'Hello. (1)']);
    const zip = Buffer.from(await (await client.raw('user/words/export?format=anki')).arrayBuffer());
    expect(await ankiCsv(zip)).toContain('Hello. (1)');

    await db.getRepository(User).update({ id }, { speaks: 'pt-BR,en' });
    expect(await translations()).toEqual({
      [phrases[0][0]]: { language: 'pt', text: 'Olá. (1)' },
      [phrases[0][1]]: { language: 'en', text: 'Goodbye. (1)' },
    });
    // French first, but the book is French: its French "translation" is skipped.
    await db.getRepository(User).update({ id }, { speaks: 'fr,en' });
    expect((await translations())[phrases[0][1]]).toEqual({ language: 'en', text: 'Goodbye. (1)' });
    // Each card says its book's language, for the pages' lang attributes.
    const cards = (await client.get<{ data: Array<{ language: string | null }> }>('user/words')).body.data;
    expect(cards.map((card) => card.language)).toEqual(['fr', 'fr']);
  });

  it('brings back a card deleted before cards had a kind, as a word', async () => {
    const { client } = await newMember(server);
    const saved = await client.post<{ data: Card }>('user/words', {
      phrase_id: phrases[0][0],
      term: 'bonjour',
    });
    const wordId = saved.body.data.id;
    expect((await client.delete(`user/words/${wordId}`)).status).toBe(200);
    // A snapshot as the trash kept it before the Practice migration: no kind.
    const trash = db.getRepository(DeletedWord);
    const entry = await trash.findOneByOrFail({ wordId });
    const snapshot = JSON.parse(entry.snapshot) as { word: Record<string, unknown> };
    delete snapshot.word.kind;
    await trash.update({ wordId }, { snapshot: JSON.stringify(snapshot) });
    const restored = await client.post<{ data: Card }>(`user/words/${wordId}/restore`);
    expect([restored.status, restored.body.data]).toEqual([
      200,
      expect.objectContaining({ id: wordId, kind: 'word' }),
    ]);
  });

  it('makes Lost a phrase card, reviewed, answered and undone like a word', async () => {
    const { client } = await reader();
    const lost = await client.put<Marked>('user/marks', { phrase_id: phrases[0][0], mark: 'lost' });
    const cardId = lost.body.data.card_id!;
    expect(cardId).toEqual(expect.any(Number));
    // Marked again, or saved with Save phrase: the same card.
    expect(
      (await client.put<Marked>('user/marks', { phrase_id: phrases[0][0], mark: 'unsure' })).body.data
        .card_id,
    ).toBe(cardId);
    expect(
      (await client.put<Marked>('user/marks', { phrase_id: phrases[0][0], mark: 'got' })).body.data.card_id,
    ).toBe(cardId);
    const saved = await client.post<{ data: Card }>('user/words', {
      phrase_id: phrases[0][0],
      kind: 'phrase',
    });
    expect([saved.status, saved.body.data.id]).toEqual([200, cardId]);

    const queue = await client.get<Queue>('user/review');
    expect(queue.body.data.cards).toEqual([
      expect.objectContaining({
        id: cardId,
        phrase_id: phrases[0][0],
        kind: 'phrase',
        term: '',
        meaning: '',
        phrase: 'Bonjour. (1)',
        glossary: GLOSSARY,
        // German comes first in what the member reads.
        translation: { language: 'de', text: 'Guten Tag. (1)' },
        audio: expect.stringMatching(/^\/media\/lines\/\w+\.mp3$/),
        state: 0,
        version: 0,
      }),
    ]);
    const answered = await client.post<{ data: { id: number; state: number } }>(`user/review/${cardId}`, {
      rating: 3,
      version: 0,
    });
    expect([answered.status, answered.body.data.id, answered.body.data.state]).toEqual([200, cardId, 1]);
    expect((await client.get<Queue>('user/review')).body.data.cards).toEqual([]);
    const undone = await client.post<{ data: Card }>('user/review/undo');
    expect(undone.status).toBe(200);
    expect(undone.body.data).toMatchObject({ id: cardId, kind: 'phrase', state: 0, reps: 0, version: 0 });
    expect((await client.get<Queue>('user/review')).body.data.cards.map((c) => c.id)).toEqual([cardId]);

    // The offline review of the book carries it too; deleting and Undo bring back the same card.
    const ahead = await client.get<{ data: { cards: Card[] } }>(`user/review/ahead?book_code=${code}`);
    expect(ahead.body.data.cards).toEqual([expect.objectContaining({ id: cardId, kind: 'phrase' })]);
    expect((await client.delete(`user/words/${cardId}`)).status).toBe(200);
    const restored = await client.post<{ data: Card }>(`user/words/${cardId}/restore`);
    expect(restored.body.data).toMatchObject({ id: cardId, kind: 'phrase', translation: { language: 'de' } });
  });

  it('saves a phrase, lists cards by kind, and gives a translation only in a language the member reads', async () => {
    const { client, id } = await reader();
    const phraseCard = await client.post<{ data: Card }>('user/words', {
      phrase_id: phrases[0][1],
      kind: 'phrase',
    });
    expect(phraseCard.status).toBe(200);
    expect(phraseCard.body.data).toMatchObject({
      kind: 'phrase',
      term: '',
      phrase: 'Au revoir. (1)',
      glossary: GLOSSARY,
      // No German for this one: English, the member's second language.
      translation: { language: 'en', text: 'Goodbye. (1)' },
    });
    const word = await client.post<{ data: Card }>('user/words', {
      phrase_id: phrases[0][0],
      term: 'bonjour',
    });
    expect(word.body.data).toMatchObject({
      kind: 'word',
      term: 'bonjour',
      translation: { language: 'de', text: 'Guten Tag. (1)' },
    });
    const list = async (query: string) =>
      (await client.get<CardList>(`user/words${query}`)).body.data.map((card) => [card.kind, card.id]);
    expect(await list('?kind=phrase')).toEqual([['phrase', phraseCard.body.data.id]]);
    expect(await list('?kind=word')).toEqual([['word', word.body.data.id]]);
    expect((await list('')).length).toBe(2);
    // A phrase card is found by its phrase.
    expect(await list('?q=revoir&kind=phrase')).toEqual([['phrase', phraseCard.body.data.id]]);
    expect((await client.get('user/words?kind=sentence')).status).toBe(422);
    expect((await client.get('user/words/books')).body).toEqual({
      data: [{ book_code: code, book_title: 'Le Petit Voyage', words: 2 }],
    });
    // Locked or unknown phrases, as for words.
    expect((await client.post('user/words', { phrase_id: phrases[1][0], kind: 'phrase' })).status).toBe(403);
    expect((await client.post('user/words', { phrase_id: 999_999, kind: 'phrase' })).status).toBe(404);
    expect((await client.post('user/words', { phrase_id: phrases[0][0], kind: 'card' })).status).toBe(422);
    // Without a term, a word is still refused.
    expect((await client.post('user/words', { phrase_id: phrases[0][0] })).status).toBe(422);

    // A member who chose no language gets no translation; one who reads only Italian neither.
    const plain = (await newMember(server)).client;
    const theirs = await plain.post<{ data: Card }>('user/words', {
      phrase_id: phrases[0][0],
      kind: 'phrase',
    });
    expect(theirs.body.data.translation).toBeNull();
    await db.getRepository(User).update({ id }, { speaks: 'it' });
    expect((await client.get<CardList>('user/words?kind=phrase')).body.data[0].translation).toBeNull();
  });

  it('exports phrase cards in the CSV and the Anki deck', async () => {
    const { client } = await reader();
    await client.put('user/marks', { phrase_id: phrases[0][0], mark: 'lost' });
    await client.post('user/words', { phrase_id: phrases[0][1], term: 'au revoir' });

    const csv = parseCsv((await (await client.raw('user/words/export')).text()).replace(/^\uFEFF/, ''));
    expect(csv[0].slice(-4)).toEqual(['kind', 'translation', 'source', 'dictionary']);
    expect(csv.slice(1).map((row) => [row[0], row[1], row[2], ...row.slice(7)])).toEqual([
      ['', '', 'Bonjour. (1)', 'phrase', 'Guten Tag. (1)', '', ''],
      ['au revoir', 'goodbye', 'Au revoir. (1)', 'word', 'Goodbye. (1)', 'glossary', ''],
    ]);

    const zip = Buffer.from(await (await client.raw('user/words/export?format=anki')).arrayBuffer());
    const rows = parseCsv(await ankiCsv(zip));
    expect(rows.slice(0, 4).map((row) => row.join(','))).toEqual([
      '#separator:Comma',
      '#html:false',
      '#columns:Term,Meaning,Phrase,Book,Chapter,Audio,Source,Tags',
      '#tags column:8',
    ]);
    const [phraseRow, wordRow] = rows.slice(4);
    // The front of a phrase card is its clip; the back its text, translation and glossary.
    expect(phraseRow[0]).toMatch(/^\[sound:lingonovel-\d+-[0-9a-f]{12}\.mp3\]$/);
    expect(phraseRow[0]).toBe(phraseRow[5]);
    expect(phraseRow.slice(1, 5)).toEqual([
      'Bonjour. (1)\nGuten Tag. (1)\nbonjour — hello\nau revoir — goodbye',
      'Bonjour. (1)',
      'Le Petit Voyage',
      '1',
    ]);
    expect(phraseRow.slice(6)).toEqual(['', 'phrase']);
    expect([wordRow[0], wordRow[1], wordRow[6], wordRow[7]]).toEqual([
      'au revoir',
      'goodbye',
      'glossary',
      'word',
    ]);
  });

  it('gives a card all its phrase\'s translations, so review picks as the reader does for a member with no "I speak"', async () => {
    // No "I speak": the reader falls back to the browser's languages (en-US, then en).
    const { client } = await newMember(server);
    await client.put('user/marks', { phrase_id: phrases[0][0], mark: 'lost' });
    const browser = ['en-US'];
    // What the reader shows (site/lib/reader/translations.ts picks with the same function).
    const readerShows = { language: 'en', text: 'Hello. (1)' };
    const review = (await client.get<Queue>('user/review')).body.data.cards;
    const words = (await client.get<CardList>('user/words?kind=phrase')).body.data;
    for (const card of [review[0], words[0]]) {
      expect(card.translations).toEqual({ de: 'Guten Tag. (1)', en: 'Hello. (1)', pt: 'Olá. (1)' });
      expect(chooseTranslation(card.translations, browser, 'fr')).toEqual(readerShows);
      // Kept for older clients: the member's "I speak" alone, none here.
      expect(card.translation).toBeNull();
    }

    // The exports take the learner's languages as /words sends them, and refuse a malformed one.
    const csv = async (query: string) =>
      parseCsv((await (await client.raw(`user/words/export${query}`)).text()).replace(/^\uFEFF/, ''))[1][8];
    expect(await csv('?languages=en-US,en')).toBe('Hello. (1)');
    expect(await csv('')).toBe('');
    const zip = Buffer.from(
      await (await client.raw('user/words/export?format=anki&languages=en-US,en')).arrayBuffer(),
    );
    expect(parseCsv(await ankiCsv(zip))[4][1]).toBe(
      'Bonjour. (1)\nHello. (1)\nbonjour — hello\nau revoir — goodbye',
    );
    const bad = await client.get('user/words/export?languages=en_US');
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      message: expect.any(String),
      errors: { languages: ['"en_US" is not a language tag (BCP 47, such as en or pt-BR).'] },
    });
  });

  it("loses a deleted phrase's marks and card with it", async () => {
    const { client, id } = await reader();
    const made = await makeBook(admin);
    const [[phraseId]] = await phraseIdsOf(admin, made.chapterIds);
    const card = (await client.put<Marked>('user/marks', { phrase_id: phraseId, mark: 'lost' })).body.data
      .card_id;
    expect(card).toEqual(expect.any(Number));
    expect((await admin.delete(`admin/phrase/${phraseId}`)).status).toBe(200);
    expect(await db.getRepository(PhraseMark).countBy({ userId: id, phraseId })).toBe(0);
    expect((await client.get(`user/marks?book_code=${made.code}&chapter_no=1`)).body).toEqual({ data: [] });
    expect((await client.get<CardList>('user/words?kind=phrase')).body.meta.total).toBe(0);
  });
});
