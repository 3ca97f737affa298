import { DataSource } from 'typeorm';
import { PhrasesRepository } from '../content/catalogue/repository/phrases.repository';
import { Phrase } from '../content/catalogue/entities/phrase.entity';
import { DictationAttempt } from '../learning/practice/dictation-attempt.entity';
import { ApiClient, newAdmin, newMember } from './api-client';
import { controlClock, MINUTE } from './clock';
import { bookForm, fixture, form } from './fixtures';
import { startServer, type TestServer } from './harness';

interface Word {
  expected: string | null;
  typed: string | null;
  status: string;
  diff?: Array<[string, string]>;
}
type Scored = { data: { phrase_id: number; score: number; strict: boolean; words: Word[] } };
type Chapter = {
  data: { phrases: Array<{ phrase_id: number; score: number; attempts: number }>; total: number | null };
};
type Stats = {
  data: {
    days: Array<{ date: string }>;
    dictation: {
      days: Array<{ date: string; attempts: number; accuracy: number | null }>;
      attempts: number;
      accuracy: number | null;
    };
  };
};

/** A book in `language` whose chapters hold the given phrases (chapter 1 free, the others locked). */
async function bookOf(admin: ApiClient, language: string, chapters: string[][]) {
  const book = await admin.post<{ data: { id: number; book_code: string } }>(
    'admin/book',
    bookForm({ language }),
  );
  if (book.status !== 200) throw new Error(book.text);
  const ids: number[][] = [];
  for (const [i, phrases] of chapters.entries()) {
    const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: `Chapitre ${i + 1}`,
      chapter_no: i + 1,
      book_id: book.body.data.id,
    });
    const chapterIds: number[] = [];
    for (const phrase of phrases) {
      const made = await admin.post<{ data: { id: number } }>(
        'admin/phrase',
        form({
          chapter_id: chapter.body.data.id,
          phrase,
          dictionary: 'mot — word',
          line_audio: [fixture('clip.mp3'), 'clip.mp3'],
        }),
      );
      if (made.status !== 200) throw new Error(made.text);
      chapterIds.push(made.body.data.id);
    }
    ids.push(chapterIds);
  }
  return { code: book.body.data.book_code, ids };
}

/** A phrase of 2,000 characters, the longest a phrase may be. */
const LONG_PHRASE = Array.from({ length: 400 }, (_, i) => `mot${i}`)
  .join(' ')
  .slice(0, 2000);

/**
 * The largest answer the API takes (10,000 characters), built to cost the most against LONG_PHRASE: words
 * near the phrase's, never equal to them.
 */
const LARGEST_ANSWER = Array.from({ length: 2000 }, (_, i) => `mos${i % 400}`)
  .join(' ')
  .slice(0, 10_000);

describe('Dictation', () => {
  let server: TestServer;
  let fr: { code: string; ids: number[][] };
  let ja: { code: string; ids: number[][] };
  let th: { code: string; ids: number[][] };
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    fr = await bookOf(admin, 'fr', [
      [
        'Il a été très content.',
        'Bonjour, je m’appelle Marie.',
        "Qu'est-ce que c'est ? Aujourd'hui, l'homme part en week-end, peut-être.",
        LONG_PHRASE,
      ],
      ['Au revoir.'],
    ]);
    ja = await bookOf(admin, 'ja', [['私は学生です。']]);
    th = await bookOf(admin, 'th', [['ฉันชอบกินข้าว']]);
  });
  afterAll(() => server.close());

  it('scores typed texts by the rules of docs/practice.md', async () => {
    const { client } = await newMember(server);
    const content = fr.ids[0][0];
    const table: Array<[number, string, boolean, number]> = [
      [content, 'Il a été très content.', false, 100],
      // Case, punctuation and spacing do not count.
      [content, '  IL   a été,  TRÈS content !!', false, 100],
      [content, 'il a\tété\ntrès content', false, 100],
      // Two accent-only slips: half a word each, or nothing in strict mode.
      [content, 'il a ete tres content', false, 80],
      [content, 'il a ete tres content', true, 60],
      [content, 'il a été très content', true, 100],
      // A missing word, a misspelt one; an extra word is shown but costs nothing.
      [content, 'il a été content', false, 80],
      [content, 'il a été très contant', false, 80],
      [content, 'il a été très très content', false, 100],
      [content, '', false, 0],
      [fr.ids[0][1], "bonjour je m'appelle marie", false, 100],
      // Apostrophes, hyphens and word boundaries typed otherwise.
      [fr.ids[0][2], 'qu est ce que c est aujourd hui l homme part en weekend peutêtre', false, 100],
      [fr.ids[0][2], 'Qu`est-ce que c´est ? Aujourdʼhui, l’homme part en week end, peut-etre.', false, 96],
      // Thai has no spaces either; ข้าว typed without its tone mark is one misspelt word of four.
      [th.ids[0][0], 'ฉันชอบกินข้าว', false, 100],
      [th.ids[0][0], 'ฉันชอบกินขาว', false, 75],
      // Japanese has no spaces between words: 私 は 学生 です.
      [ja.ids[0][0], '私は学生です', false, 100],
      [ja.ids[0][0], '私は先生です。', false, 75],
      [ja.ids[0][0], '私は', false, 50],
    ];
    for (const [phraseId, text, strict, score] of table) {
      const res = await client.post<Scored>('user/dictation', { phrase_id: phraseId, text, strict });
      expect([text, strict, res.status, res.body.data.score]).toEqual([text, strict, 201, score]);
    }
  });

  it('answers word by word, with the letters that differ', async () => {
    const { client } = await newMember(server);
    const res = await client.post<Scored>('user/dictation', {
      phrase_id: fr.ids[0][0],
      text: 'il ete tres contant aussi',
    });
    expect(res.body).toEqual({
      data: {
        phrase_id: fr.ids[0][0],
        score: 40, // (1 right + 2 halves) of 5; the extra word costs nothing
        strict: false,
        words: [
          { expected: 'Il', typed: 'il', status: 'correct' },
          { expected: 'a', typed: null, status: 'missing' },
          {
            expected: 'été',
            typed: 'ete',
            status: 'accent',
            diff: [
              ['-', 'é'],
              ['+', 'e'],
              ['=', 't'],
              ['-', 'é'],
              ['+', 'e'],
            ],
          },
          {
            expected: 'très',
            typed: 'tres',
            status: 'accent',
            diff: [
              ['=', 'tr'],
              ['-', 'è'],
              ['+', 'e'],
              ['=', 's'],
            ],
          },
          {
            expected: 'content',
            typed: 'contant',
            status: 'misspelt',
            diff: [
              ['=', 'cont'],
              ['-', 'e'],
              ['+', 'a'],
              ['=', 'nt'],
            ],
          },
          { expected: null, typed: 'aussi', status: 'extra' },
        ],
      },
    });
  });

  it('takes 10,000 characters against the longest phrase, keeps a bounded copy, and refuses more', async () => {
    const { client, id } = await newMember(server);
    const attempts = server.app.get(DataSource).getRepository(DictationAttempt);
    const latest = async () =>
      (await attempts.find({ where: { userId: id }, order: { id: 'DESC' }, take: 1 }))[0];
    // The phrase typed right, then more than enough: scored whole (extra words cost nothing).
    const text = `${LONG_PHRASE} ${'encore '.repeat(2000)}`.slice(0, 10_000);
    const long = await client.post<Scored>('user/dictation', { phrase_id: fr.ids[0][3], text });
    expect([long.status, long.body.data.score]).toEqual([201, 100]);
    expect(long.body.data.words.at(-1)).toMatchObject({ expected: null, status: 'extra' });
    // Kept: 4 characters per character of the phrase and 100 more (8,100 here), the score as sent.
    expect(await latest()).toMatchObject({ typed: text.slice(0, 8100), score: 100 });

    // A short phrase keeps less of a long answer; a short answer is kept whole.
    const short = 'Il a été très content.';
    await client.post('user/dictation', { phrase_id: fr.ids[0][0], text: 'très '.repeat(2000) });
    expect((await latest()).typed).toBe('très '.repeat(2000).slice(0, 4 * short.length + 100));
    await client.post('user/dictation', { phrase_id: fr.ids[0][0], text: 'il a été très' });
    expect((await latest()).typed).toBe('il a été très');

    const over = await client.post('user/dictation', { phrase_id: fr.ids[0][3], text: text + 'x' });
    expect([over.status, over.body]).toEqual([
      422,
      {
        message: 'The text must not be longer than 10,000 characters.',
        errors: { text: ['The text must not be longer than 10,000 characters.'] },
      },
    ]);
  });

  it('takes 60 dictations a minute from a member, then 429 with Retry-After', async () => {
    const clock = controlClock(server);
    try {
      const { client } = await newMember(server);
      const send = () => client.post('user/dictation', { phrase_id: fr.ids[0][0], text: 'il a' });
      for (let i = 0; i < 60; i++) expect((await send()).status).toBe(201);
      const refused = await send();
      expect([refused.status, refused.body]).toEqual([
        429,
        { message: 'Too many dictations sent. Please try again in a minute.' },
      ]);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
      clock.advance(MINUTE);
      expect((await send()).status).toBe(201);
    } finally {
      clock.restore();
    }
  });

  it('compares only what it keeps of an answer: nothing past 4 characters per character of the phrase and 100', async () => {
    const { client } = await newMember(server);
    const short = 'Il a été très content.';
    const bound = 4 * short.length + 100;
    // One long word filling the bound, then the phrase typed right: the phrase is past what is kept.
    const text = `${'z'.repeat(bound + 2)} ${short}`;
    const scored = await client.post<Scored>('user/dictation', { phrase_id: fr.ids[0][0], text });
    expect(scored.status).toBe(201);
    expect(scored.body.data.score).toBe(0);
    expect(scored.body.data.words.filter((w) => w.status === 'extra')).toEqual([
      { expected: null, typed: 'z'.repeat(bound), status: 'extra' },
    ]);
    const chapter = await client.get<Chapter>(`user/dictation?book_code=${fr.code}&chapter_no=1`);
    expect(chapter.body.data.phrases).toEqual([{ phrase_id: fr.ids[0][0], score: 0, attempts: 1 }]);
  });

  it('limits the text a member has compared in a minute: 429 with a message and Retry-After', async () => {
    const clock = controlClock(server);
    try {
      const { client } = await newMember(server);
      // The longest phrase (2,000 characters) and the longest answer kept (8,100): 11 thousands each,
      // of 100 a minute; far below the 60 dictations a minute.
      const send = () =>
        client.post<Scored>('user/dictation', { phrase_id: fr.ids[0][3], text: LARGEST_ANSWER });
      for (let i = 0; i < 9; i++) expect((await send()).status).toBe(201);
      const refused = await send();
      expect([refused.status, refused.body]).toEqual([
        429,
        {
          message:
            'Too much dictation text sent in the last minute (long answers count more). Please try again in a minute.',
        },
      ]);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
      // A short dictation still fits in what is left (99 of 100 spent), and is counted.
      const small = await client.post('user/dictation', { phrase_id: fr.ids[0][0], text: 'il a' });
      expect(small.status).toBe(201);
      expect((await client.post('user/dictation', { phrase_id: fr.ids[0][0], text: 'il a' })).status).toBe(
        429,
      );
      // Refused attempts are not kept.
      const chapter = await client.get<Chapter>(`user/dictation?book_code=${fr.code}&chapter_no=1`);
      expect(chapter.body.data.phrases.map((p) => [p.phrase_id, p.attempts])).toEqual([
        [fr.ids[0][0], 1],
        [fr.ids[0][3], 9],
      ]);
      clock.advance(MINUTE);
      expect((await send()).status).toBe(201);
    } finally {
      clock.restore();
    }
  });

  it('answers the health check while three members send the largest answers at once', async () => {
    const members = await Promise.all([newMember(server), newMember(server), newMember(server)]);
    let scoring = true;
    const scored = Promise.all(
      members.flatMap(({ client }) =>
        Array.from({ length: 3 }, () =>
          client.post<Scored>('user/dictation', { phrase_id: fr.ids[0][3], text: LARGEST_ANSWER }),
        ),
      ),
    ).finally(() => (scoring = false));
    const health: number[] = [];
    do {
      const answer = await admin.get<{ status: string }>('health');
      expect(answer.body).toEqual({ status: 'ok' });
      health.push(answer.status);
    } while (scoring);
    const answers = await scored;
    expect(answers.map((a) => a.status)).toEqual(Array(9).fill(201));
    for (const answer of answers) expect(answer.body.data.phrase_id).toBe(fr.ids[0][3]);
    expect(health.length).toBeGreaterThan(0);
    expect(new Set(health)).toEqual(new Set([200]));
  });

  it('answers 404, not 500, for a phrase deleted while its dictation is scored', async () => {
    const { client } = await newMember(server);
    const doomed = (await bookOf(admin, 'fr', [['Bientôt partie.']])).ids[0][0];
    const phrases = server.app.get(PhrasesRepository);
    const byId = phrases.byId.bind(phrases);
    // The phrase is read, then deleted by an administrator before the attempt is written.
    const spy = jest.spyOn(phrases, 'byId').mockImplementationOnce(async (id: number) => {
      const found = await byId(id);
      await server.app.get(DataSource).getRepository(Phrase).delete(id);
      return found;
    });
    try {
      const res = await client.post('user/dictation', { phrase_id: doomed, text: 'bientôt partie' });
      expect([res.status, res.body]).toEqual([404, { message: 'Phrase not found.' }]);
    } finally {
      spy.mockRestore();
    }
  });

  it("describes the practice routes' errors with the messages they really send", async () => {
    type Responses = Record<string, { description: string }>;
    const doc = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Responses }>>;
    };
    const { client } = await newMember(server);
    const locked = await client.post<{ message: string }>('user/dictation', {
      phrase_id: fr.ids[1][0],
      text: 'x',
    });
    const unknown = await client.put<{ message: string }>('user/marks', { phrase_id: 999_999, mark: 'lost' });
    for (const [path, method] of [
      ['/api/v1/user/dictation', 'post'],
      ['/api/v1/user/marks', 'put'],
    ]) {
      const { responses } = doc.paths[path][method];
      expect(responses['403'].description).toContain(locked.body.message);
      expect(responses['404'].description).toContain(unknown.body.message);
    }
    for (const path of ['/api/v1/user/dictation', '/api/v1/user/marks'])
      expect(Object.keys(doc.paths[path].get.responses)).toContain('422');
  });

  it('lets an administrator practise a locked phrase', async () => {
    const res = await admin.post<Scored>('user/dictation', { phrase_id: fr.ids[1][0], text: 'au revoir' });
    expect([res.status, res.body.data.score]).toEqual([201, 100]);
  });

  it('answers 401 without a token, 403 for a locked phrase, 404 for an unknown one, 422 for bad input', async () => {
    const { client } = await newMember(server);
    const body = { phrase_id: fr.ids[0][0], text: 'il a été' };
    expect((await new ApiClient(server).post('user/dictation', body)).status).toBe(401);
    expect((await new ApiClient(server).get(`user/dictation?book_code=${fr.code}&chapter_no=1`)).status).toBe(
      401,
    );
    const locked = await client.post('user/dictation', { phrase_id: fr.ids[1][0], text: 'au revoir' });
    expect(locked.status).toBe(403);
    expect((await client.post('user/dictation', { phrase_id: 999_999, text: 'x' })).status).toBe(404);
    for (const [bad, field] of [
      [{ text: 'x' }, 'phrase_id'],
      [{ phrase_id: 'one', text: 'x' }, 'phrase_id'],
      [{ phrase_id: [fr.ids[0][0]], text: 'x' }, 'phrase_id'],
      [{ phrase_id: null, text: 'x' }, 'phrase_id'],
      [{ phrase_id: -1, text: 'x' }, 'phrase_id'],
      [{ phrase_id: 0, text: 'x' }, 'phrase_id'],
      [{ phrase_id: 2 ** 31, text: 'x' }, 'phrase_id'],
      [{ phrase_id: 1.5, text: 'x' }, 'phrase_id'],
      [{ phrase_id: { id: 1 }, text: 'x' }, 'phrase_id'],
      [{ phrase_id: fr.ids[0][0] }, 'text'],
      [{ phrase_id: fr.ids[0][0], text: 42 }, 'text'],
      [{ phrase_id: fr.ids[0][0], text: 'x', strict: 'maybe' }, 'strict'],
    ] as const) {
      const res = await client.post<{ errors: Record<string, string[]> }>('user/dictation', bad);
      expect([bad, res.status, Object.keys(res.body.errors)]).toEqual([bad, 422, [field]]);
    }
    for (const query of ['', `book_code=${fr.code}`, `book_code=${fr.code}&chapter_no=x`, 'chapter_no=1'])
      expect([query, (await client.get(`user/dictation?${query}`)).status]).toEqual([query, 422]);
    // Nothing refused was kept.
    expect((await client.get<Chapter>(`user/dictation?book_code=${fr.code}&chapter_no=1`)).body).toEqual({
      data: { phrases: [], total: null },
    });
  });

  it("keeps each attempt, and sums up a chapter: each phrase's latest score and attempts, and their mean", async () => {
    const { client, id } = await newMember(server);
    const other = (await newMember(server)).client;
    const send = (c: ApiClient, phraseId: number, text: string) =>
      c.post('user/dictation', { phrase_id: phraseId, text });
    await send(client, fr.ids[0][1], 'bonjour');
    await send(client, fr.ids[0][0], 'il a');
    await send(client, fr.ids[0][0], 'il a été très content');
    await send(client, fr.ids[0][1], 'bonjour je');
    await send(other, fr.ids[0][0], '');
    await send(client, ja.ids[0][0], '私は学生です');
    const summary = await client.get<Chapter>(`user/dictation?book_code=${fr.code}&chapter_no=1`);
    expect(summary.body).toEqual({
      data: {
        phrases: [
          { phrase_id: fr.ids[0][0], score: 100, attempts: 2 },
          { phrase_id: fr.ids[0][1], score: 50, attempts: 2 },
        ],
        total: 75,
      },
    });
    const rows = await server.app
      .get(DataSource)
      .getRepository(DictationAttempt)
      .find({ where: { userId: id }, order: { id: 'ASC' } });
    expect(rows.map((row) => [row.phraseId, row.typed, row.score, row.strict])).toEqual([
      [fr.ids[0][1], 'bonjour', 25, false],
      [fr.ids[0][0], 'il a', 40, false],
      [fr.ids[0][0], 'il a été très content', 100, false],
      [fr.ids[0][1], 'bonjour je', 50, false],
      [ja.ids[0][0], '私は学生です', 100, false],
    ]);
    expect((await other.get<Chapter>(`user/dictation?book_code=${fr.code}&chapter_no=1`)).body.data).toEqual({
      phrases: [{ phrase_id: fr.ids[0][0], score: 0, attempts: 1 }],
      total: 0,
    });
    expect(
      (await client.get<Chapter>(`user/dictation?book_code=nope&chapter_no=1`)).body.data.total,
    ).toBeNull();
  });

  it("charts dictation accuracy per day in the member's time zone", async () => {
    // The server's clock stands still, so "today" is the same day for the test and the server, even
    // when the test runs across midnight in Tokyo.
    const clock = controlClock(server);
    try {
      const { client, id } = await newMember(server);
      expect((await client.put('user/profile', { time_zone: 'Asia/Tokyo' })).status).toBe(200);
      const empty = (await client.get<Stats>('user/stats')).body.data.dictation;
      expect(empty.days).toHaveLength(30);
      expect(empty).toMatchObject({ attempts: 0, accuracy: null });
      expect(empty.days.every((day) => day.attempts === 0 && day.accuracy === null)).toBe(true);

      const tokyoToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(clock.now());
      const tokyo = (daysAgo: number, hour: number) =>
        new Date(Date.parse(`${tokyoToday}T00:00:00+09:00`) - daysAgo * 86_400_000 + hour * 3_600_000);
      // Earlier attempts, written straight: the API dates them now.
      const attempts = server.app.get(DataSource).getRepository(DictationAttempt);
      const earlier = [
        [tokyo(1, 23.99), 40],
        [tokyo(1, 0.01), 61],
        [tokyo(3, 12), 100],
        [tokyo(30, 12), 10], // before the chart's 30 days
      ] as const;
      for (const [createdAt, score] of earlier)
        await attempts.insert({
          userId: id,
          phraseId: fr.ids[0][0],
          typed: 'x',
          score,
          strict: false,
          createdAt,
        });
      await client.post('user/dictation', { phrase_id: fr.ids[0][0], text: 'il a été très content' });
      await client.post('user/dictation', { phrase_id: fr.ids[0][0], text: 'il a été' });

      const { data } = (await client.get<Stats>('user/stats')).body;
      const { dictation } = data;
      expect(dictation.days.map((day) => day.date)).toEqual(data.days.map((day) => day.date));
      expect(dictation.days.at(-1)).toEqual({ date: tokyoToday, attempts: 2, accuracy: 80 });
      expect(dictation.days.at(-2)).toEqual({ date: dictation.days.at(-2)!.date, attempts: 2, accuracy: 51 });
      expect(dictation.days.at(-3)).toMatchObject({ attempts: 0, accuracy: null });
      expect(dictation.days.at(-4)).toMatchObject({ attempts: 1, accuracy: 100 });
      expect(dictation.days.reduce((sum, day) => sum + day.attempts, 0)).toBe(5);
      expect(dictation).toMatchObject({ attempts: 5, accuracy: Math.round((100 + 60 + 40 + 61 + 100) / 5) });
    } finally {
      clock.restore();
    }
  });
});
