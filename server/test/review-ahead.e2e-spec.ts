import { DataSource } from 'typeorm';
import { newCard } from '../learning/words/scheduler';
import { SavedWord } from '../learning/words/saved-word.entity';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook, phraseIdsOf } from './books';
import { controlClock, MINUTE } from './clock';
import { mediaBytes } from './fixtures';
import { rawGet, startServer, type TestServer } from './harness';
import { StripeStandIn } from './stripe-stand-in';
import { stripeEnv, webhooks } from './stripe-webhooks';

/**
 * `GET user/review/ahead`: what a device keeps to review one book offline (docs/api.md, "Words, review
 * and progress"), and answering those cards later with `POST user/review/{id}`.
 */

const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface Card {
  id: number;
  phrase_id: number;
  term: string;
  audio: string | null;
  book_code: string;
  chapter_no: number;
  due_at: string;
  state: number;
  created_at: string;
  version: number;
  next: Record<'again' | 'hard' | 'good' | 'easy', { due_at: string; label: string }>;
}
type Ahead = { data: { cards: Card[]; until: string; new_limit: number } };
type Queue = { data: { cards: Card[]; due_count: number; new_count: number } };
type Word = { id: number };
type Refusal = { message: string; errors?: Record<string, string[]> };

const iso = (at: Date | number) => new Date(at).toISOString();
const ids = (cards: Card[]) => cards.map((card) => card.id);
const DAYS_MESSAGE = 'The days must be a whole number from 1 to 7.';

describe('Review ahead: a book’s cards for offline review', () => {
  let server: TestServer;
  const standIn = new StripeStandIn();
  const { setPlan } = webhooks(() => server);
  let clock: ReturnType<typeof controlClock>;
  let admin: ApiClient;
  /** Two books; phrases[book][chapter][position - 1]. Chapter 1 of each is free, 2 and 3 locked. */
  let codes: [string, string];
  let phrases: number[][][];
  /** A member with a plan and words in both books, and another member with a word in the first. */
  let member: ApiClient;
  let other: ApiClient;
  const words: Record<string, number> = {};

  const ahead = (client: ApiClient, query: string) => client.get<Ahead>(`user/review/ahead?${query}`);

  beforeAll(async () => {
    server = await startServer(undefined, { ...stripeEnv(await standIn.start()), REVIEW_FUZZ: 'false' });
    admin = (await newAdmin(server)).client;
    const books = [await makeBook(admin), await makeBook(admin)];
    codes = [books[0].code, books[1].code];
    phrases = [await phraseIdsOf(admin, books[0].chapterIds), await phraseIdsOf(admin, books[1].chapterIds)];
    // The server's clock is frozen from here on, and moved on as the story needs.
    clock = controlClock(server);

    const signedUp = await newMember(server);
    member = signedUp.client;
    await setPlan(signedUp.id, 'trialing', Math.floor(Date.now() / 1000) + 30 * 86_400);
    other = (await newMember(server)).client;
    const save = async (client: ApiClient, name: string, phraseId: number, term: string) => {
      const saved = await client.post<{ data: Word }>('user/words', { phrase_id: phraseId, term });
      expect(saved.status).toBe(200);
      words[name] = saved.body.data.id;
      clock.advance(MINUTE);
    };
    const answer = async (name: string, rating: number) =>
      expect((await member.post(`user/review/${words[name]}`, { rating })).status).toBe(200);
    // Book 1: two cards answered five days ago, and two new ones, the third chapter's saved first.
    await save(member, 'easy', phrases[0][0][0], 'bonjour');
    await save(member, 'learning', phrases[0][0][1], 'au revoir');
    await save(member, 'newer chapter 3', phrases[0][2][0], 'au revoir');
    await save(member, 'new chapter 2', phrases[0][1][0], 'bonjour');
    // Book 2: a new card and a learning one.
    await save(member, 'book 2 new', phrases[1][0][0], 'bonjour');
    await save(member, 'book 2 learning', phrases[1][0][1], 'au revoir');
    // The other member's word is on the same phrase as one of the member's.
    await save(other, 'other', phrases[0][0][0], 'bonjour');
    await answer('easy', 4); // due 8 days later
    await answer('learning', 3); // due 10 minutes later
    await answer('book 2 learning', 3);
    clock.advance(5 * DAY);
    // So the card answered Easy is due in 3 days; the learning ones are overdue.
    await answer('book 2 new', 3); // a new card started today, in the other book
  });
  afterAll(async () => {
    clock.restore();
    await server.close();
    await standIn.stop();
  });

  it('gives the member’s cards of that book due by `until`: learnt by due date, then new ones, oldest saved first', async () => {
    const res = await ahead(member, `book_code=${codes[0]}&days=7`);
    expect(res.status).toBe(200);
    expect(res.body.data.until).toBe(iso(clock.now().getTime() + 7 * DAY));
    expect(ids(res.body.data.cards)).toEqual([
      words.learning,
      words.easy,
      words['newer chapter 3'],
      words['new chapter 2'],
    ]);
    expect(res.body.data.cards.map((card) => [card.book_code, card.state])).toEqual([
      [codes[0], 1],
      [codes[0], 2],
      [codes[0], 0],
      [codes[0], 0],
    ]);
    expect(res.body.data.cards[1].due_at).toBe(iso(clock.now().getTime() + 3 * DAY));
    // Today's allowance of new cards, as the review queue counts it: 20, less the one started today.
    expect(res.body.data.new_limit).toBe(19);
    // Without days: 7.
    const byDefault = await ahead(member, `book_code=${codes[0]}`);
    expect(byDefault.body).toEqual(res.body);

    // The other book: only its own cards.
    const second = await ahead(member, `book_code=${codes[1]}`);
    expect(ids(second.body.data.cards)).toEqual([words['book 2 learning'], words['book 2 new']]);
    expect(second.body.data.cards.every((card) => card.book_code === codes[1])).toBe(true);
  });

  it('gives each card exactly as the review queue does', async () => {
    const cards = (await ahead(member, `book_code=${codes[0]}`)).body.data.cards;
    const queue = await member.get<Queue>('user/review');
    expect(queue.status).toBe(200);
    const queued = new Map(queue.body.data.cards.map((card) => [card.id, card]));
    // The queue holds the overdue card and the new ones (not the one due in 3 days): the same cards, whole.
    const shared = cards.filter((card) => queued.has(card.id));
    expect(ids(shared)).toEqual([words.learning, words['newer chapter 3'], words['new chapter 2']]);
    for (const card of shared) expect(card).toEqual(queued.get(card.id));
    const keys = Object.keys(queue.body.data.cards[0]).sort();
    for (const card of cards) expect(Object.keys(card).sort()).toEqual(keys);
  });

  it('includes a card due in 3 days with days=3 or more, and leaves it out with days=2 or 1', async () => {
    const learntAndNew = [words.learning, words.easy, words['newer chapter 3'], words['new chapter 2']];
    const withoutIt = [words.learning, words['newer chapter 3'], words['new chapter 2']];
    for (const [days, expected] of [
      [1, withoutIt],
      [2, withoutIt],
      [3, learntAndNew], // due exactly at `until`
      [7, learntAndNew],
    ] as const) {
      const res = await ahead(member, `book_code=${codes[0]}&days=${days}`);
      expect([days, res.status, ids(res.body.data.cards)]).toEqual([days, 200, expected]);
      expect(res.body.data.until).toBe(iso(clock.now().getTime() + days * DAY));
    }
  });

  it("never gives another member's words", async () => {
    const mine = ids((await ahead(member, `book_code=${codes[0]}`)).body.data.cards);
    expect(mine).not.toContain(words.other);
    const theirs = await ahead(other, `book_code=${codes[0]}`);
    expect(ids(theirs.body.data.cards)).toEqual([words.other]);
    expect(theirs.body.data.new_limit).toBe(20);
    expect((await ahead(other, `book_code=${codes[1]}`)).body.data.cards).toEqual([]);
    // An administrator is a signed-in user like any other: their own words only (none).
    const admins = await ahead(admin, `book_code=${codes[0]}`);
    expect([admins.status, admins.body.data.cards, admins.body.data.new_limit]).toEqual([200, [], 20]);
  });

  it('gives clip URLs the device can fetch: the free chapter’s, and the locked chapters’ signed ones', async () => {
    const cards = (await ahead(member, `book_code=${codes[0]}`)).body.data.cards;
    expect(cards.map((card) => card.chapter_no)).toEqual([1, 1, 3, 2]);
    for (const card of cards) {
      expect(card.audio).toEqual(expect.stringMatching(/^\/media\/lines\/\w+\.mp3/));
      const clip = await rawGet(server.baseUrl + card.audio!);
      expect([card.id, clip.status, clip.headers['content-type']]).toEqual([card.id, 200, 'audio/mpeg']);
      expect(clip.body.length).toBeGreaterThan(0);
      expect(clip.body.equals(await mediaBytes(server, card.audio!))).toBe(true);
    }
    for (const locked of cards.filter((card) => card.chapter_no > 1)) {
      expect(locked.audio).toMatch(/\?exp=\d+&sig=[\w-]+$/);
      expect((await rawGet(server.baseUrl + locked.audio!.split('?')[0])).status).toBe(403);
    }
  });

  it('refuses an unknown book with 404, and a missing book or a bad number of days with 422', async () => {
    const unknown = await member.get<Refusal>('user/review/ahead?book_code=no-such-book');
    expect([unknown.status, unknown.body]).toEqual([404, { message: 'Book not found.' }]);
    for (const query of ['', 'days=7', 'book_code=']) {
      const res = await member.get<Refusal>(`user/review/ahead?${query}`);
      expect([query, res.status, res.body]).toEqual([
        query,
        422,
        {
          message: 'The book code field is required.',
          errors: { book_code: ['The book code field is required.'] },
        },
      ]);
    }
    for (const days of ['0', '8', '-1', '2.5', 'seven', '1e1']) {
      const res = await member.get<Refusal>(`user/review/ahead?book_code=${codes[0]}&days=${days}`);
      expect([days, res.status, res.body]).toEqual([
        days,
        422,
        { message: DAYS_MESSAGE, errors: { days: [DAYS_MESSAGE] } },
      ]);
    }
    const signedOut = await new ApiClient(server).get(`user/review/ahead?book_code=${codes[0]}`);
    expect(signedOut.status).toBe(401);
  });

  it('gives at most 500 cards: learnt ones by due date first, then the oldest new ones, in a fixed number of queries', async () => {
    const bulk = await newMember(server);
    const now = clock.now();
    // 498 learnt cards due within the week (in an order their ids do not follow), 2 due after it, and 5
    // new cards, some on a locked chapter: seeded straight into the table, the API saves one at a time.
    const learnt = Array.from({ length: 500 }, (_, i) => ({
      term: `learnt ${i}`,
      phraseId: phrases[0][0][0],
      due: new Date(now.getTime() + (i < 498 ? ((i * 7919) % 498) + 1 : 9 * 24 * 6) * 10 * MINUTE),
      state: 2,
      reps: 3,
      stability: 12,
      difficulty: 5,
      scheduledDays: 4,
      lastReview: new Date(now.getTime() - DAY),
      createdAt: new Date(now.getTime() - 2 * DAY),
    }));
    const fresh = [4, 1, 3, 5, 2].map((hoursAgo) => ({
      term: `new ${hoursAgo}`,
      phraseId: phrases[0][1][0],
      createdAt: new Date(now.getTime() - hoursAgo * HOUR),
    }));
    const table = server.app.get(DataSource).getRepository(SavedWord);
    const inserted = new Map<string, number>();
    const rows = [
      ...learnt.map((row) => ({ ...newCard(row.createdAt), meaning: 'm', userId: bulk.id, ...row })),
      ...fresh.map((row) => ({ ...newCard(row.createdAt), meaning: 'm', userId: bulk.id, ...row })),
    ];
    for (let i = 0; i < rows.length; i += 100) {
      const { identifiers } = await table.insert(rows.slice(i, i + 100));
      identifiers.forEach(({ id }, j) => inserted.set(rows[i + j].term, Number(id)));
    }
    const learntByDue = learnt
      .slice(0, 498)
      .sort((a, b) => a.due.getTime() - b.due.getTime())
      .map((row) => inserted.get(row.term));
    expect(new Set(learntByDue).size).toBe(498);

    // Queries on the tables this route reads, whatever other work the server does meanwhile.
    const logger = server.app.get(DataSource).logger;
    // The fewest of three runs: work the server does in the background meanwhile (measuring clips,
    // rebuilding an audiobook, another instance's notices) is logged too, and only ever adds.
    const countQueries = async (run: () => Promise<unknown>) => {
      const counts: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const spy = jest.spyOn(logger, 'logQuery');
        try {
          await run();
          counts.push(
            spy.mock.calls.filter(([sql]) =>
              /saved_words|phrases|chapters|books|subscriptions|review_logs/.test(sql),
            ).length,
          );
        } finally {
          spy.mockRestore();
        }
      }
      return Math.min(...counts);
    };
    let res: Awaited<ReturnType<typeof ahead>> | undefined;
    const many = await countQueries(async () => (res = await ahead(bulk.client, `book_code=${codes[0]}`)));
    expect(res!.status).toBe(200);
    const cards = res!.body.data.cards;
    expect(cards).toHaveLength(500);
    expect(ids(cards)).toEqual([...learntByDue, inserted.get('new 5'), inserted.get('new 4')]);
    // A member without a plan: the locked chapter's clips are not given, as the review queue does.
    expect(cards.at(-1)!.audio).toBeNull();
    const few = await countQueries(() => ahead(member, `book_code=${codes[0]}`));
    expect(few).toBeGreaterThan(0);
    expect(many).toBe(few);
  });

  it('takes an answer to a card it gave, with its version and reviewed_at, once', async () => {
    const cards = (await ahead(member, `book_code=${codes[0]}`)).body.data.cards;
    const card = cards.find((one) => one.id === words['newer chapter 3'])!;
    expect(card).toMatchObject({ state: 0, version: 0 });
    // Reviewed offline, sent a day later.
    clock.advance(DAY);
    const reviewedAt = iso(clock.now().getTime() - 20 * HOUR);
    const answer = () =>
      member.post<{ data: { id: number; state: number; due_at: string } }>(`user/review/${card.id}`, {
        rating: 3,
        version: card.version,
        reviewed_at: reviewedAt,
      });
    const first = await answer();
    expect([first.status, first.body.data]).toEqual([
      200,
      expect.objectContaining({ id: card.id, state: 1, due_at: iso(Date.parse(reviewedAt) + 10 * MINUTE) }),
    ]);
    const again = await answer();
    expect([again.status, again.body]).toEqual([
      409,
      { message: 'This card was just answered elsewhere. Reload to go on.' },
    ]);
    // The card is now a learnt one, overdue: with the learnt cards, at its new version.
    const after = (await ahead(member, `book_code=${codes[0]}`)).body.data.cards;
    expect(after.find((one) => one.id === card.id)).toMatchObject({ state: 1, version: 1 });
    expect(ids(after).indexOf(card.id)).toBeLessThan(ids(after).indexOf(words['new chapter 2']));
  });

  it('is described in the OpenAPI document', async () => {
    type Operation = {
      'x-auth': string;
      parameters: Array<{ name: string; in: string; required: boolean }>;
      responses: Record<string, unknown>;
    };
    const document = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const operation = document.paths['/api/v1/user/review/ahead'].get;
    expect(operation['x-auth']).toBe('member');
    expect(operation.parameters.map(({ name, in: where, required }) => [name, where, required])).toEqual([
      ['book_code', 'query', true],
      ['days', 'query', false],
    ]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '422']));
    expect(Object.keys(document.components.schemas.ReviewAhead.properties).sort()).toEqual([
      'cards',
      'new_limit',
      'until',
    ]);
  });
});
