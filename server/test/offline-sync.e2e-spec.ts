import { randomUUID } from 'node:crypto';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook, phraseIdsOf } from './books';
import { controlClock, MINUTE } from './clock';
import { startServer, type TestServer } from './harness';

/**
 * Actions made offline and sent later (docs/api.md, "Actions sent later"): review answers with
 * `reviewed_at`, listening reports with their `at`, reading places with `at`.
 */

const SECOND = 1000;
const HOUR = 60 * MINUTE;
const DAY = 86_400_000;

type Word = { id: number; due_at: string; state: number; reps: number; created_at: string };
type Card = Word & { version: number };
type Queue = { data: { cards: Card[]; due_count: number; new_count: number } };
type Answer = {
  data: { id: number; due_at: string; interval: string; state: number; reps: number; lapses: number };
};
type Stats = {
  data: { days: Array<{ date: string; minutes: number; reviews: number }>; phrases_heard: number };
};
type Recorded = { data: { accepted: number; duplicates: number; skipped: number } };
type Place = {
  data: { position: number; speed: number; updated_at: string };
  kept?: boolean;
  message?: string;
};
type Refusal = { message: string; errors: Record<string, string[]> };

const iso = (at: Date | number) => new Date(at).toISOString();
const utcDate = (at: Date | number) => iso(at).slice(0, 10);
const refusal = (field: string, message: string) => ({ message, errors: { [field]: [message] } });

describe('Actions sent later', () => {
  let server: TestServer;
  let code: string;
  /** phrases[chapter][position - 1]: chapter 1 is free. */
  let phrases: number[][];
  let clock: ReturnType<typeof controlClock>;

  beforeAll(async () => {
    server = await startServer(undefined, { REVIEW_FUZZ: 'false' });
    const admin = (await newAdmin(server)).client;
    const book = await makeBook(admin);
    code = book.code;
    phrases = await phraseIdsOf(admin, book.chapterIds);
  });
  afterAll(() => server.close());
  // Each test runs on a frozen server clock, moved on as the story needs (days pass between saving a word
  // and answering it offline, say); times sent are read from it.
  beforeEach(() => (clock = controlClock(server)));
  afterEach(() => clock.restore());

  const ago = (ms: number) => new Date(clock.now().getTime() - ms);

  /** A member with one saved word, saved `savedDaysAgo` days before the server's now. */
  async function memberWithWord(savedDaysAgo = 3, term = 'bonjour') {
    const member = await newMember(server);
    const saved = await member.client.post<{ data: Word }>('user/words', { phrase_id: phrases[0][0], term });
    expect(saved.status).toBe(200);
    clock.advance(savedDaysAgo * DAY);
    // Signed in again: a session lasts a week, on the server's clock.
    const login = await member.client.post<{ token: string }>('user/login', {
      email: member.email,
      password: member.password,
    });
    return { client: member.client.withToken(login.body.token), word: saved.body.data };
  }

  const words = async (client: ApiClient) => (await client.get<{ data: Word[] }>('user/words')).body.data;

  describe('review answers with reviewed_at', () => {
    it('schedules from the time the answer was given: in the answer, the queue, the word and the stats', async () => {
      const { client, word } = await memberWithWord();
      const reviewedAt = ago(2 * DAY);
      const answer = await client.post<Answer>(`user/review/${word.id}`, {
        rating: 3,
        version: 0,
        reviewed_at: iso(reviewedAt),
      });
      expect(answer.status).toBe(200);
      // Good on a new card: its next learning step, 10 minutes after the answer, not after now.
      const due = iso(reviewedAt.getTime() + 10 * MINUTE);
      expect(answer.body.data).toEqual({
        id: word.id,
        due_at: due,
        interval: '10 min',
        state: 1,
        reps: 1,
        lapses: 0,
      });
      // That step is long past: the card is due now, at version 1, no longer new.
      const queue = (await client.get<Queue>('user/review')).body.data;
      expect(queue).toMatchObject({ due_count: 1, new_count: 0 });
      expect(queue.cards).toEqual([
        expect.objectContaining({ id: word.id, due_at: due, version: 1, reps: 1 }),
      ]);
      expect(await words(client)).toEqual([expect.objectContaining({ id: word.id, due_at: due, state: 1 })]);
      // The review counts on the day it was given.
      const days = (await client.get<Stats>('user/stats')).body.data.days;
      const byDate = Object.fromEntries(days.map((day) => [day.date, day.reviews]));
      expect(byDate[utcDate(reviewedAt)]).toBe(1);
      expect(days.reduce((sum, day) => sum + day.reviews, 0)).toBe(1);
      // Undo takes it back exactly.
      const undone = await client.post<{ data: Card }>('user/review/undo');
      expect(undone.body.data).toMatchObject({ id: word.id, version: 0, reps: 0, state: 0 });
    });

    it('puts a card answered Easy offline due as long after that time as the same answer given now', async () => {
      const offline = await memberWithWord();
      const live = await memberWithWord(0);
      const reviewedAt = ago(2 * DAY);
      const late = await offline.client.post<Answer>(`user/review/${offline.word.id}`, {
        rating: 4,
        reviewed_at: iso(reviewedAt),
      });
      const now = await live.client.post<Answer>(`user/review/${live.word.id}`, { rating: 4 });
      expect([late.status, now.status]).toEqual([200, 200]);
      const wait = Date.parse(now.body.data.due_at) - clock.now().getTime();
      expect(wait).toBe(8 * DAY);
      expect(Date.parse(late.body.data.due_at) - reviewedAt.getTime()).toBe(wait);
      expect(late.body.data.interval).toBe(now.body.data.interval);
      expect((await offline.client.get<Queue>('user/review')).body.data).toMatchObject({
        cards: [],
        due_count: 0,
      });
    });

    it('moves the version on by exactly 1 per answer applied, and refuses a stale version with 409', async () => {
      const { client, word } = await memberWithWord();
      const answer = (version: number | undefined, reviewedAt: Date) =>
        client.post<Answer>(`user/review/${word.id}`, { rating: 1, version, reviewed_at: iso(reviewedAt) });
      const version = async () => (await client.get<Queue>('user/review')).body.data.cards[0].version;
      const stale = { message: 'This card was just answered elsewhere. Reload to go on.' };

      const first = ago(2 * DAY);
      expect((await answer(0, first)).status).toBe(200);
      expect(await version()).toBe(1);
      // The same queued answer sent again (the client did not hear back): applied once.
      const retried = await answer(0, first);
      expect([retried.status, retried.body]).toEqual([409, stale]);
      expect(await version()).toBe(1);
      expect((await answer(1, ago(DAY))).body.data.reps).toBe(2);
      expect(await version()).toBe(2);
      expect((await answer(1, ago(DAY - MINUTE))).status).toBe(409);
      expect((await answer(5, ago(DAY - MINUTE))).status).toBe(409);
      // Without a version, the same time sent again is taken for the same answer.
      const again = await answer(undefined, ago(DAY));
      expect([again.status, again.body]).toEqual([
        409,
        { message: 'This card was answered a moment ago. Reload to go on.' },
      ]);
      expect(await version()).toBe(2);
      expect((await words(client))[0].reps).toBe(2);
    });

    it('refuses a time that is not a date-time, in the future, too old, before the word or its last answer', async () => {
      const { client, word } = await memberWithWord(31);
      const post = (body: Record<string, unknown>) =>
        client.post<Refusal>(`user/review/${word.id}`, { rating: 3, ...body });
      const malformed = 'The review time must be a date and time such as 2026-11-22T09:30:00Z.';
      for (const reviewed_at of [
        'yesterday',
        '2026-02-30T10:00:00Z',
        '2026-01-01T10:00:00',
        '2026-01-01',
        '2026-W01-1T10:00:00Z',
        12345,
        true,
      ]) {
        const res = await post({ reviewed_at });
        expect([reviewed_at, res.status, res.body]).toEqual([
          reviewed_at,
          422,
          refusal('reviewed_at', malformed),
        ]);
      }
      const future = await post({ reviewed_at: iso(clock.now().getTime() + 61 * SECOND) });
      expect([future.status, future.body]).toEqual([
        422,
        refusal('reviewed_at', 'The review time must not be in the future.'),
      ]);
      const old = await post({ reviewed_at: iso(ago(30 * DAY + SECOND)) });
      expect([old.status, old.body]).toEqual([
        422,
        refusal('reviewed_at', 'The review time must be within the last 30 days.'),
      ]);
      const fresh = await memberWithWord(0, 'au revoir');
      const unborn = await fresh.client.post<Refusal>(`user/review/${fresh.word.id}`, {
        rating: 3,
        reviewed_at: iso(ago(MINUTE)),
      });
      expect([unborn.status, unborn.body]).toEqual([
        422,
        refusal('reviewed_at', 'The review time must not be before the word was saved.'),
      ]);
      // None of those changed the card; a time exactly 30 days ago still counts.
      expect((await words(client))[0]).toMatchObject({ reps: 0, state: 0 });
      expect((await post({ reviewed_at: iso(ago(30 * DAY)), version: 0 })).status).toBe(200);
      expect((await post({ reviewed_at: iso(ago(DAY)), version: 1 })).status).toBe(200);
      const earlier = await post({ reviewed_at: iso(ago(2 * DAY)), version: 2 });
      expect([earlier.status, earlier.body]).toEqual([
        422,
        refusal('reviewed_at', "The review time must not be before the card's last answer."),
      ]);
      expect((await words(client))[0].reps).toBe(2);
      expect((await new ApiClient(server).post(`user/review/${word.id}`, { rating: 3 })).status).toBe(401);
    });

    it('takes a time up to 60 s ahead of the server as now', async () => {
      const { client, word } = await memberWithWord(0);
      const res = await client.post<Answer>(`user/review/${word.id}`, {
        rating: 3,
        reviewed_at: iso(clock.now().getTime() + 59 * SECOND),
      });
      expect(res.status).toBe(200);
      expect(res.body.data.due_at).toBe(iso(clock.now().getTime() + 10 * MINUTE));
      expect(res.body.data.interval).toBe('10 min');
    });

    it('takes a null time as now, as an absent one', async () => {
      const { client, word } = await memberWithWord(0);
      const res = await client.post<Answer>(`user/review/${word.id}`, { rating: 3, reviewed_at: null });
      expect(res.status).toBe(200);
      expect(res.body.data.due_at).toBe(iso(clock.now().getTime() + 10 * MINUTE));
      const { client: other } = await newMember(server);
      const place = await other.put<Place>('user/progress', {
        book_code: code,
        chapter_no: 1,
        position: 2,
        at: null,
      });
      expect(place.body).toEqual({
        data: expect.objectContaining({ position: 2, updated_at: iso(clock.now()) }),
      });
    });
  });

  describe('listening reports', () => {
    const report = (client: ApiClient, at: Date, ms = 60_000) =>
      client.post<Recorded>('user/listening', {
        events: [{ id: randomUUID(), phrase_id: phrases[0][0], ms, at: iso(at) }],
      });

    it('takes a report heard 20 days ago and counts it on its own day; refuses one 31 days old', async () => {
      const { client } = await newMember(server);
      const heard = ago(20 * DAY);
      const res = await report(client, heard);
      expect([res.status, res.body]).toEqual([
        200,
        { message: '1 listening event recorded.', data: { accepted: 1, duplicates: 0, skipped: 0 } },
      ]);
      const old = await report(client, ago(31 * DAY));
      expect([old.status, old.body]).toEqual([
        200,
        { message: '0 listening events recorded.', data: { accepted: 0, duplicates: 0, skipped: 1 } },
      ]);
      const stats = (await client.get<Stats>('user/stats')).body.data;
      expect(stats.phrases_heard).toBe(1);
      expect(stats.days.filter((day) => day.minutes > 0)).toEqual([
        { date: utcDate(heard), minutes: 1, reviews: 0 },
      ]);
    });

    it('takes a report exactly 30 days old, and skips one a second older', async () => {
      const { client } = await newMember(server);
      expect((await report(client, ago(30 * DAY))).body.data.accepted).toBe(1);
      expect((await report(client, ago(30 * DAY + SECOND))).body.data.skipped).toBe(1);
    });
  });

  describe('reading places with at', () => {
    const put = (client: ApiClient, body: Record<string, unknown>) =>
      client.put<Place>('user/progress', { book_code: code, chapter_no: 1, ...body });

    it("keeps the server's later place against an older one, and answers it", async () => {
      const { client } = await newMember(server);
      const live = await put(client, { position: 2, speed: 0.75 });
      expect(live.body).toEqual({
        data: expect.objectContaining({ position: 2, updated_at: iso(clock.now()) }),
      });
      const kept = await put(client, { position: 1, speed: 1.25, at: iso(ago(HOUR)) });
      expect(kept.status).toBe(200);
      expect(kept.body).toEqual({
        data: live.body.data,
        kept: true,
        message: 'A later place in this book was saved on another device: it is kept.',
      });
      expect((await client.get<Place>(`user/progress/${code}`)).body).toEqual({ data: live.body.data });

      // A place from after the one held replaces it, dated when the learner was there.
      clock.advance(2 * HOUR);
      const later = await put(client, { position: 1, at: iso(ago(HOUR)) });
      expect(later.body).toEqual({
        data: { ...live.body.data, position: 1, updated_at: iso(ago(HOUR)) },
      });
      // The same place sent again (a retry) is applied again, not reported as kept.
      expect((await put(client, { position: 1, at: iso(ago(HOUR)) })).body.kept).toBeUndefined();
    });

    it('clamps a future time to now, and saves a first place dated at its time', async () => {
      const { client } = await newMember(server);
      const first = await put(client, { position: 2, at: iso(ago(DAY)) });
      expect(first.body).toEqual({
        data: expect.objectContaining({ position: 2, speed: 1, updated_at: iso(ago(DAY)) }),
      });
      const ahead = await put(client, { position: 1, at: iso(clock.now().getTime() + DAY) });
      expect(ahead.status).toBe(200);
      expect(ahead.body).toEqual({
        data: expect.objectContaining({ position: 1, updated_at: iso(clock.now()) }),
      });
      // Clamped to now, not kept as tomorrow: a place from an hour ago is then older and kept out.
      expect((await put(client, { position: 2, at: iso(ago(HOUR)) })).body.kept).toBe(true);
      // A form's blank time is now, as without it.
      clock.advance(MINUTE);
      const form = await client.put<Place>(
        'user/progress',
        new URLSearchParams({ book_code: code, chapter_no: '1', position: '2', at: '' }),
      );
      expect(form.body.data).toMatchObject({ position: 2, updated_at: iso(clock.now()) });
    });

    it('leaves the latest place when two devices send theirs at once', async () => {
      const { client } = await newMember(server);
      const [older, newer] = await Promise.all([
        put(client, { position: 1, at: iso(ago(2 * HOUR)) }),
        put(client, { position: 2, at: iso(ago(HOUR)) }),
      ]);
      expect(newer.body).toEqual({
        data: expect.objectContaining({ position: 2, updated_at: iso(ago(HOUR)) }),
      });
      // The older one was either applied first and then replaced, or kept out and told so.
      if (older.body.kept) expect(older.body.data).toEqual(newer.body.data);
      else expect(older.body.data.position).toBe(1);
      expect((await client.get<Place>(`user/progress/${code}`)).body.data).toEqual(newer.body.data);
    });

    it('refuses a time that is not a date-time, or more than 30 days old, with a 422 on at', async () => {
      const { client } = await newMember(server);
      const malformed = 'The time at that place must be a date and time such as 2026-11-22T09:30:00Z.';
      for (const at of ['yesterday', '2026-02-30T10:00:00Z', '2026-01-01T10:00', 1767225600000]) {
        const res = await put(client, { position: 1, at });
        expect([at, res.status, res.body]).toEqual([at, 422, refusal('at', malformed)]);
      }
      const old = await put(client, { position: 1, at: iso(ago(30 * DAY + SECOND)) });
      expect([old.status, old.body]).toEqual([
        422,
        refusal('at', 'The time at that place must be within the last 30 days.'),
      ]);
      expect((await client.get(`user/progress/${code}`)).status).toBe(404);
      expect((await put(client, { position: 1, at: iso(ago(30 * DAY)) })).status).toBe(200);
    });
  });

  it('describes the new fields in the OpenAPI document', async () => {
    type Schema = { properties: Record<string, Record<string, unknown>>; required?: string[] };
    const document = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as {
      components: { schemas: Record<string, Schema> };
    };
    const { ReviewAnswerDto, ProgressDto, ProgressSaveAnswer } = document.components.schemas;
    expect(ReviewAnswerDto.properties.reviewed_at).toMatchObject({ type: 'string', format: 'date-time' });
    expect(ReviewAnswerDto.required).toEqual(['rating']);
    expect(ProgressDto.properties.at).toMatchObject({ type: 'string', format: 'date-time' });
    expect(ProgressDto.required).not.toContain('at');
    expect(ProgressSaveAnswer.properties.kept).toMatchObject({ type: 'boolean' });
    expect(ProgressSaveAnswer.required).toEqual(['data']);
  });
});
