import { DataSource } from 'typeorm';
import { parseCsv } from './csv';
import { Phrase } from '../content/catalogue/entities/phrase.entity';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook, phraseIdsOf } from './books';
import { fixture, form } from './fixtures';
import { controlClock } from './clock';
import { UNDO_WINDOW_MS, WordTrash } from '../learning/words/word-trash';
import { startServer, type TestServer } from './harness';
import { StripeStandIn } from './stripe-stand-in';
import { stripeEnv, webhooks } from './stripe-webhooks';

interface Word {
  id: number;
  term: string;
  meaning: string;
  phrase: string;
  audio: string | null;
  book_code: string;
  chapter_no: number;
  position: number;
  state: number;
  reps: number;
}
type WordAnswer = { data: Word };
type WordList = { data: Word[]; meta: { total: number; page: number; per_page: number } };

describe('Saved words', () => {
  let server: TestServer;
  const standIn = new StripeStandIn();
  let admin: ApiClient;
  let code: string;
  let chapterIds: number[];
  const phraseIds: number[][] = [];
  const { setPlan } = webhooks(() => server);

  beforeAll(async () => {
    server = await startServer(undefined, stripeEnv(await standIn.start()));
    admin = (await newAdmin(server)).client;
    ({ code, chapterIds } = await makeBook(admin));
    phraseIds.push(...(await phraseIdsOf(admin, chapterIds)));
  });
  afterAll(async () => {
    await server.close();
    await standIn.stop();
  });

  it('saves a glossary entry with its meaning, phrase, clip, book and chapter, once', async () => {
    const { client } = await newMember(server);
    const saved = await client.post<WordAnswer>('user/words', {
      phrase_id: phraseIds[0][0],
      term: 'bonjour',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({
      id: expect.any(Number),
      phrase_id: phraseIds[0][0],
      kind: 'word',
      term: 'bonjour',
      meaning: 'hello',
      source: 'glossary',
      source_name: null,
      phrase: 'Bonjour. (1)',
      glossary: [
        { term: 'bonjour', meaning: 'hello' },
        { term: 'au revoir', meaning: 'goodbye' },
      ],
      // The member chose no language; the phrase has no translations.
      translation: null,
      translations: {},
      audio: expect.stringMatching(/^\/media\/lines\/\w+\.mp3$/),
      book_code: code,
      book_title: 'Le Petit Voyage',
      // The test book was made without a language.
      language: null,
      chapter_no: 1,
      position: 1,
      due_at: expect.any(String),
      state: 0,
      reps: 0,
      lapses: 0,
      created_at: expect.any(String),
    });
    const again = await client.post<WordAnswer>('user/words', {
      phrase_id: phraseIds[0][0],
      term: 'bonjour',
    });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(saved.body.data.id);
    const [one, two] = await Promise.all([
      client.post<WordAnswer>('user/words', { phrase_id: phraseIds[0][1], term: 'au revoir' }),
      client.post<WordAnswer>('user/words', { phrase_id: phraseIds[0][1], term: 'au revoir' }),
    ]);
    expect(one.body.data.id).toBe(two.body.data.id);
    expect((await client.get<WordList>('user/words')).body.meta.total).toBe(2);
  });

  it('answers an unknown phrase 404, a term not in its glossary 422, a locked phrase 403', async () => {
    const { client } = await newMember(server);
    expect((await client.post('user/words', { phrase_id: 999999, term: 'bonjour' })).status).toBe(404);
    const missing = await client.post('user/words', { phrase_id: phraseIds[0][0], term: 'chat' });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      message: 'That term is not in the glossary of this phrase.',
      errors: { term: ['That term is not in the glossary of this phrase.'] },
    });
    const locked = await client.post('user/words', { phrase_id: phraseIds[1][0], term: 'bonjour' });
    expect(locked.status).toBe(403);
    for (const body of [{}, { phrase_id: 'x', term: 'bonjour' }, { phrase_id: phraseIds[0][0], term: '' }]) {
      expect((await client.post('user/words', body)).status).toBe(422);
    }
    expect(
      (await new ApiClient(server).post('user/words', { phrase_id: phraseIds[0][0], term: 'bonjour' }))
        .status,
    ).toBe(401);
  });

  it('filters by book and due, pages with meta, and deletes only the member’s own words', async () => {
    const { client } = await newMember(server);
    const other = (await newMember(server)).client;
    const ids: number[] = [];
    for (const [phrase, term] of [
      [phraseIds[0][0], 'bonjour'],
      [phraseIds[0][0], 'au revoir'],
      [phraseIds[0][1], 'bonjour'],
    ] as const) {
      ids.push((await client.post<WordAnswer>('user/words', { phrase_id: phrase, term })).body.data.id);
    }
    const page = await client.get<WordList>('user/words?per_page=2&page=2');
    expect(page.body.meta).toEqual({ total: 3, page: 2, per_page: 2 });
    expect(page.body.data).toHaveLength(1);
    expect((await client.get<WordList>(`user/words?book_code=${code}&due=1`)).body.meta.total).toBe(3);
    expect((await client.get<WordList>('user/words?book_code=nope')).body.meta.total).toBe(0);
    expect((await client.get('user/words/books')).body).toEqual({
      data: [{ book_code: code, book_title: 'Le Petit Voyage', words: 3 }],
    });
    expect((await other.get('user/words/books')).body).toEqual({ data: [] });
    expect((await client.get<WordList>(`user/words?book_code=${code}&chapter_no=1`)).body.meta.total).toBe(3);
    expect((await client.get<WordList>(`user/words?book_code=${code}&chapter_no=2`)).body.meta.total).toBe(0);
    const search = async (q: string) =>
      (await client.get<WordList>(`user/words?q=${encodeURIComponent(q)}`)).body.data.map((w) => w.term);
    expect(await search('BONJ')).toEqual(['bonjour', 'bonjour']);
    expect(await search('goodbye')).toEqual(['au revoir']);
    expect(await search('%')).toEqual([]);
    expect(await search('_')).toEqual([]);
    // A search is compared, never stored: a control character finds nothing rather than being a 422.
    const control = await client.get<WordList>(`user/words?q=${encodeURIComponent('bon\u001b')}`);
    expect([control.status, control.body.data]).toEqual([200, []]);
    for (const bad of [
      'q=%00',
      'book_code=a%00b',
      'per_page=201',
      'per_page=0',
      'page=0',
      'due=2',
      'page=x',
      'chapter_no=0',
      `q=${'x'.repeat(201)}`,
    ]) {
      expect([bad, (await client.get(`user/words?${bad}`)).status]).toEqual([bad, 422]);
    }
    expect((await other.delete(`user/words/${ids[0]}`)).status).toBe(404);
    expect((await client.delete(`user/words/${ids[0]}`)).status).toBe(200);
    expect((await client.delete(`user/words/${ids[0]}`)).status).toBe(404);
    expect((await client.get<WordList>('user/words')).body.meta.total).toBe(2);
  });

  it('shows an edited phrase, and loses the words of a deleted one', async () => {
    const { client } = await newMember(server);
    const phraseId = phraseIds[0][1];
    await client.post('user/words', { phrase_id: phraseId, term: 'bonjour' });
    await server.app
      .get(DataSource)
      .getRepository(Phrase)
      .update({ id: phraseId }, { phrase: 'Bonjour, Claire.' });
    expect((await client.get<WordList>('user/words')).body.data[0].phrase).toBe('Bonjour, Claire.');
    expect((await admin.delete(`admin/phrase/${phraseId}`)).status).toBe(200);
    expect((await client.get<WordList>('user/words')).body.meta.total).toBe(0);
  });

  it('exports the words as a CSV that spreadsheets read, parsed back here', async () => {
    const { client, id } = await newMember(server);
    await setPlan(id, 'active');
    await client.post('user/words', { phrase_id: phraseIds[2][1], term: 'au revoir' });
    await client.post('user/words', { phrase_id: phraseIds[0][0], term: 'bonjour' });
    const res = await client.raw('user/words/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="lingonovel-words.csv"');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(bytes.toString('utf8').slice(1));
    expect(rows[0]).toEqual([
      'term',
      'meaning',
      'phrase',
      'book',
      'chapter',
      'audio URL',
      'audio URL expires',
      'kind',
      'translation',
      'source',
      'dictionary',
    ]);
    expect(rows.slice(1).map((row) => row.slice(0, 5))).toEqual([
      ['bonjour', 'hello', 'Bonjour. (1)', 'Le Petit Voyage', '1'],
      ['au revoir', 'goodbye', 'Au revoir. (3)', 'Le Petit Voyage', '3'],
    ]);
    expect(rows.slice(1).map((row) => row.slice(9))).toEqual([
      ['glossary', ''],
      ['glossary', ''],
    ]);
    expect(rows[1][5]).toMatch(/^https:\/\/books\.example\.org\/media\/lines\/\w+\.mp3$/);
    expect(rows[2][5]).toMatch(/^https:\/\/books\.example\.org\/media\/lines\/\w+\.mp3\?exp=\d+&sig=[\w-]+$/);
    // A free clip's link does not expire; a signed one says until when it works, in UTC.
    expect(rows[1][6]).toBe('never');
    const exp = Number(new URL(rows[2][5]).searchParams.get('exp'));
    expect(rows[2][6]).toBe(`${new Date(exp * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(exp * 1000 - Date.now()).toBeGreaterThan(5 * 3600_000 - 60_000);
    expect((await new ApiClient(server).get('user/words/export')).status).toBe(401);
  });

  describe('deleting a word, and Undo', () => {
    type Stats = { data: { words_saved: number; reviews_done: number } };
    type Deleted = { message: string; undo_until: string };
    type Queue = { data: { cards: Array<{ id: number }> } };

    /** A phrase of its own in chapter 1, so that deleting it touches no other test. */
    const ownPhrase = async () =>
      (
        await admin.post<{ data: { id: number } }>(
          'admin/phrase',
          form({
            chapter_id: chapterIds[0],
            phrase: 'Le chat dort.',
            dictionary: 'chat — cat',
            line_audio: [fixture('clip.mp3'), 'clip.mp3'],
          }),
        )
      ).body.data.id;

    /** Saves a word and answers it once in a review: a card with a history. */
    const reviewedWord = async (client: ApiClient, phraseId = phraseIds[0][0]) => {
      const saved = await client.post<WordAnswer>('user/words', { phrase_id: phraseId, term: 'bonjour' });
      expect((await client.post(`user/review/${saved.body.data.id}`, { rating: 3, version: 0 })).status).toBe(
        200,
      );
      return (await client.get<WordList>('user/words')).body.data[0];
    };

    it('deletes at once, leaves no trace meanwhile, and Undo brings back the same word, card and history', async () => {
      const { client } = await newMember(server);
      const word = await reviewedWord(client);
      expect(word.reps).toBe(1);

      const deleted = await client.delete<Deleted>(`user/words/${word.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ message: 'The word has been removed.', undo_until: expect.any(String) });
      const window = Date.parse(deleted.body.undo_until) - Date.now();
      expect(window).toBeGreaterThan(100_000);
      expect(window).toBeLessThanOrEqual(120_000);
      // Gone from the list, the books filter, the review, the exports and the stats.
      expect((await client.get<WordList>('user/words')).body.meta.total).toBe(0);
      expect((await client.get('user/words/books')).body).toEqual({ data: [] });
      expect((await client.get<Queue>('user/review')).body.data.cards).toEqual([]);
      const csv = await (await client.raw('user/words/export')).text();
      expect(parseCsv(csv.replace(/^\uFEFF/, ''))).toHaveLength(1);
      expect((await client.get<Stats>('user/stats')).body.data).toMatchObject({
        words_saved: 0,
        reviews_done: 0,
      });
      expect((await client.post('user/review/undo')).status).toBe(404);

      const other = (await newMember(server)).client;
      expect((await other.post(`user/words/${word.id}/restore`)).status).toBe(404);
      const restored = await client.post<{ message: string; data: Word }>(`user/words/${word.id}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body).toEqual({ message: 'The word is back.', data: word });
      expect((await client.get<WordList>('user/words')).body.data).toEqual([word]);
      expect((await client.get<Stats>('user/stats')).body.data).toMatchObject({
        words_saved: 1,
        reviews_done: 1,
      });
      // Its history came back: the review's answer can still be taken back.
      const undone = await client.post<{ data: { id: number; reps: number } }>('user/review/undo');
      expect([undone.status, undone.body.data.id, undone.body.data.reps]).toEqual([200, word.id, 0]);
      expect((await client.post(`user/words/${word.id}/restore`)).status).toBe(404);
      expect((await new ApiClient(server).post(`user/words/${word.id}/restore`)).status).toBe(401);
    });

    it('deletes a word once when two deletes arrive together, and restores it once', async () => {
      const { client } = await newMember(server);
      const word = await reviewedWord(client);
      const deletes = await Promise.all([1, 2].map(() => client.delete(`user/words/${word.id}`)));
      expect(deletes.map((d) => d.status).sort()).toEqual([200, 404]);
      const restores = await Promise.all([1, 2].map(() => client.post(`user/words/${word.id}/restore`)));
      expect(restores.map((r) => r.status).sort()).toEqual([200, 404]);
      expect((await client.get<WordList>('user/words')).body.data).toEqual([word]);
    });

    it('keeps a deleted word for the undo window only, then purges it', async () => {
      const { client } = await newMember(server);
      const word = await reviewedWord(client);
      const db = server.app.get(DataSource);
      const count = async (table: string, column: string) =>
        Number(
          (
            await db.query<Array<{ n: number | string }>>(
              `SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ${Number(word.id)}`,
            )
          )[0].n,
        );
      const clock = controlClock(server);
      try {
        expect((await client.delete(`user/words/${word.id}`)).status).toBe(200);
        clock.advance(UNDO_WINDOW_MS - 1000);
        // Other tests' words deleted earlier may go now; this one stays.
        await server.app.get(WordTrash).purge();
        expect(await count('word_trash', 'word_id')).toBe(1);
        clock.advance(1001);
        const late = await client.post(`user/words/${word.id}/restore`);
        expect([late.status, late.body]).toEqual([
          404,
          { message: 'This word can no longer be brought back.' },
        ]);
        expect(await server.app.get(WordTrash).purge()).toBeGreaterThanOrEqual(1);
        // The trash holds nothing older than the window, whoever deleted it.
        expect(await server.app.get(WordTrash).purge()).toBe(0);
        expect(await count('word_trash', 'word_id')).toBe(0);
        expect(await count('review_logs', 'word_id')).toBe(0);
      } finally {
        clock.restore();
      }
    });

    it('answers 409 when the word was saved again since, and 404 when its phrase is gone', async () => {
      const { client } = await newMember(server);
      const word = await reviewedWord(client);
      await client.delete(`user/words/${word.id}`);
      const again = await client.post<WordAnswer>('user/words', {
        phrase_id: phraseIds[0][0],
        term: 'bonjour',
      });
      expect(again.body.data.id).not.toBe(word.id);
      const clash = await client.post(`user/words/${word.id}/restore`);
      expect([clash.status, clash.body]).toEqual([
        409,
        { message: 'You have saved this word again since you deleted it.' },
      ]);
      // Nothing was taken out of the trash on the way: deleting the new one lets the old one back.
      await client.delete(`user/words/${again.body.data.id}`);
      expect((await client.post(`user/words/${word.id}/restore`)).status).toBe(200);

      const phraseId = await ownPhrase();
      const saved = await client.post<WordAnswer>('user/words', { phrase_id: phraseId, term: 'chat' });
      await client.delete(`user/words/${saved.body.data.id}`);
      expect((await admin.delete(`admin/phrase/${phraseId}`)).status).toBe(200);
      const gone = await client.post(`user/words/${saved.body.data.id}/restore`);
      expect([gone.status, gone.body]).toEqual([
        404,
        { message: 'The phrase this word came from has been deleted.' },
      ]);
    });
  });

  it('guards CSV cells against formulas', async () => {
    const { client } = await newMember(server);
    const chapter = chapterIds[0];
    const phrase = await admin.post<{ data: { id: number } }>(
      'admin/phrase',
      form({
        chapter_id: chapter,
        phrase: '=HYPERLINK("http://evil.example")',
        dictionary: '@cmd — danger',
        line_audio: [fixture('clip.mp3'), 'clip.mp3'],
      }),
    );
    await client.post('user/words', { phrase_id: phrase.body.data.id, term: '@cmd' });
    const res = await client.raw('user/words/export');
    const rows = parseCsv((await res.text()).replace(/^\uFEFF/, ''));
    expect(rows[1].slice(0, 3)).toEqual(["'@cmd", 'danger', '\'=HYPERLINK("http://evil.example")']);
  });

  it('signs locked clips for members who may read them, and gives none once the plan lapses', async () => {
    const { client, id } = await newMember(server);
    await setPlan(id, 'active');
    const saved = await client.post<WordAnswer>('user/words', {
      phrase_id: phraseIds[2][0],
      term: 'au revoir',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.audio).toMatch(/\?exp=\d+&sig=/);
    await setPlan(id, 'past_due');
    const after = await client.get<WordList>('user/words');
    expect(after.body.data[0]).toMatchObject({ term: 'au revoir', phrase: 'Bonjour. (3)', audio: null });
  });
});

describe('Review with FSRS', () => {
  let server: TestServer;
  let phraseId: number;
  beforeAll(async () => {
    server = await startServer(undefined, { REVIEW_FUZZ: 'false' });
    const admin = (await newAdmin(server)).client;
    const { chapterIds } = await makeBook(admin);
    phraseId = (await phraseIdsOf(admin, chapterIds))[0][0];
  });
  afterAll(() => server.close());

  type Queue = {
    data: {
      cards: Array<Word & { version: number; next: Record<string, { due_at: string; label: string }> }>;
      due_count: number;
      new_count: number;
    };
  };
  type Answer = { data: { id: number; due_at: string; interval: string; state: number; reps: number } };

  it('offers new cards with the next interval of each answer, and schedules Again < Good < Easy', async () => {
    const dues: Record<number, number> = {};
    for (const rating of [1, 3, 4]) {
      const { client } = await newMember(server);
      const saved = await client.post<WordAnswer>('user/words', { phrase_id: phraseId, term: 'bonjour' });
      const queue = await client.get<Queue>('user/review');
      expect(queue.body.data).toMatchObject({ due_count: 0, new_count: 1 });
      const card = queue.body.data.cards[0];
      expect(card).toMatchObject({
        id: saved.body.data.id,
        term: 'bonjour',
        meaning: 'hello',
        phrase: 'Bonjour. (1)',
      });
      expect(Object.keys(card.next)).toEqual(['again', 'hard', 'good', 'easy']);
      const answer = await client.post<Answer>(`user/review/${card.id}`, { rating });
      expect(answer.status).toBe(200);
      // As the button said, give or take the moments between showing the card and answering it.
      const shown = Date.parse(card.next[{ 1: 'again', 3: 'good', 4: 'easy' }[rating]!].due_at);
      expect(Math.abs(Date.parse(answer.body.data.due_at) - shown)).toBeLessThan(5000);
      dues[rating] = Date.parse(answer.body.data.due_at);
    }
    expect(dues[1]).toBeLessThan(dues[3]);
    expect(dues[3]).toBeLessThan(dues[4]);
    expect(dues[1] - Date.now()).toBeLessThan(3600_000);
  });

  it('applies two answers sent at once for one card once; the other is a 409', async () => {
    const { client } = await newMember(server);
    const saved = await client.post<WordAnswer>('user/words', { phrase_id: phraseId, term: 'au revoir' });
    const [card] = (await client.get<Queue>('user/review')).body.data.cards;
    expect(card.version).toBe(0);
    const answers = await Promise.all([
      client.post(`user/review/${saved.body.data.id}`, { rating: 3, version: card.version }),
      client.post(`user/review/${saved.body.data.id}`, { rating: 3, version: card.version }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body).toEqual({
      message: 'This card was just answered elsewhere. Reload to go on.',
    });
    expect((await client.get<WordList>('user/words')).body.data[0].reps).toBe(1);
  });

  it('applies four identical answers sent at once without a version once; the others are 409s', async () => {
    const { client } = await newMember(server);
    const saved = await client.post<WordAnswer>('user/words', { phrase_id: phraseId, term: 'bonjour' });
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => client.post(`user/review/${saved.body.data.id}`, { rating: 3 })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(refused.body).toEqual({ message: 'This card was answered a moment ago. Reload to go on.' });
    expect((await client.get<WordList>('user/words')).body.data[0].reps).toBe(1);
  });

  it('takes an answer without a version 2 s after the last one, and at once after an undo', async () => {
    const { client } = await newMember(server);
    const saved = await client.post<WordAnswer>('user/words', { phrase_id: phraseId, term: 'bonjour' });
    const clock = controlClock(server);
    try {
      const answer = () => client.post<Answer>(`user/review/${saved.body.data.id}`, { rating: 1 });
      expect((await answer()).status).toBe(200);
      clock.advance(1999);
      expect((await answer()).status).toBe(409);
      clock.advance(1);
      expect((await answer()).body.data.reps).toBe(2);
      // U takes the last answer back: the card is as it was, and may be answered again straight away.
      expect((await client.post('user/review/undo')).status).toBe(200);
      const again = await answer();
      expect([again.status, again.body.data.reps]).toEqual([200, 2]);
    } finally {
      clock.restore();
    }
  });

  it('judges an answer that sends its version by the version alone, and moves it on by exactly 1', async () => {
    const { client } = await newMember(server);
    const saved = await client.post<WordAnswer>('user/words', { phrase_id: phraseId, term: 'au revoir' });
    const id = saved.body.data.id;
    const answer = (version: number) => client.post<Answer>(`user/review/${id}`, { rating: 1, version });
    expect((await answer(0)).status).toBe(200);
    expect((await answer(0)).status).toBe(409);
    expect((await answer(2)).status).toBe(409);
    // Shown again at version 1 (another tab reloaded, say): not a duplicate, even a moment later.
    const second = await answer(1);
    expect([second.status, second.body.data.reps]).toEqual([200, 2]);
    const undone = await client.post<{ data: { version: number; reps: number } }>('user/review/undo');
    expect(undone.body.data).toMatchObject({ version: 1, reps: 1 });
  });

  it('refuses a rating outside 1–4 with a 422, and another member’s card with a 404', async () => {
    const { client } = await newMember(server);
    const saved = await client.post<WordAnswer>('user/words', { phrase_id: phraseId, term: 'bonjour' });
    for (const rating of [0, 5, 'good', 2.5, null]) {
      const res = await client.post(`user/review/${saved.body.data.id}`, { rating });
      expect([rating, res.status]).toEqual([rating, 422]);
    }
    const other = (await newMember(server)).client;
    expect((await other.post(`user/review/${saved.body.data.id}`, { rating: 3 })).status).toBe(404);
    // Beyond a 32-bit id (which PostgreSQL would refuse): unknown, not an error.
    expect((await client.post('user/review/99999999999', { rating: 3 })).status).toBe(404);
    expect((await client.delete('user/words/99999999999')).status).toBe(404);
  });
});
