import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Chapter } from '../content/catalogue/entities/chapter.entity';
import { quarterOf } from '../platform/common/time-zone';
import { ListeningEvent } from '../learning/listening/listening-event.entity';
import { Phrase } from '../content/catalogue/entities/phrase.entity';
import { SavedWord } from '../learning/words/saved-word.entity';
import { newCard } from '../learning/words/scheduler';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook, phraseIdsOf } from './books';
import { controlClock, MINUTE } from './clock';
import { startServer, type TestServer } from './harness';

type Stats = {
  data: {
    days: Array<{ date: string; minutes: number; reviews: number }>;
    phrases_heard: number;
    words_saved: number;
    reviews_done: number;
    streak_days: number;
    books_finished: number;
  };
};
type Recorded = { data: { accepted: number; duplicates: number; skipped: number } };
type Queue = {
  data: { cards: Array<{ id: number; version: number }>; due_count: number; new_count: number };
};

const event = (phraseId: number, at: string | Date, ms = 2000) => ({
  id: randomUUID(),
  phrase_id: phraseId,
  ms,
  at: typeof at === 'string' ? at : at.toISOString(),
});

describe('Learner progress', () => {
  let server: TestServer;
  let admin: ApiClient;
  /** phrases[chapter][position], for one book of three chapters of two phrases. */
  const phrases: number[][] = [];

  beforeAll(async () => {
    server = await startServer(undefined, { REVIEW_FUZZ: 'false' });
    admin = (await newAdmin(server)).client;
    const { chapterIds } = await makeBook(admin);
    phrases.push(...(await phraseIdsOf(admin, chapterIds)));
  });
  afterAll(() => server.close());

  /** Listening from earlier days (some older than a report may be), written straight to the table. */
  async function heardEarlier(userId: number, phraseId: number, instants: Date[], ms: number) {
    const phrase = await server.app.get(DataSource).getRepository(Phrase).findOneByOrFail({ id: phraseId });
    const chapter = await server.app
      .get(DataSource)
      .getRepository(Chapter)
      .findOneByOrFail({ id: phrase.chapterId });
    await server.app
      .get(DataSource)
      .getRepository(ListeningEvent)
      .insert(
        instants.map((at) => ({
          userId,
          eventId: randomUUID(),
          phraseId,
          bookId: chapter.bookId,
          chapterId: chapter.id,
          ms,
          heardAt: at,
          heardQuarter: quarterOf(at),
          receivedAt: at,
        })),
      );
  }

  describe('time zone', () => {
    it('takes an IANA name on the profile, alone or with the name, and refuses anything else', async () => {
      const { client } = await newMember(server, 'Tess Zone');
      const set = await client.put<{ data: { time_zone: string; name: string } }>('user/profile', {
        time_zone: 'europe/paris',
      });
      expect(set.status).toBe(200);
      expect(set.body.data).toMatchObject({ time_zone: 'Europe/Paris', name: 'Tess Zone' });
      for (const time_zone of ['Mars/Olympus_Mons', '+02:00', 'GMT+2;', '', 42, ['UTC']]) {
        const res = await client.put<{ errors: Record<string, string[]> }>('user/profile', { time_zone });
        expect([time_zone, res.status]).toEqual([time_zone, 422]);
        expect(res.body.errors.time_zone).toEqual([
          'The time zone must be an IANA time zone name, such as Europe/Paris.',
        ]);
      }
      const renamed = await client.put<{ data: { time_zone: string; name: string } }>('user/profile', {
        name: 'Tess Renamed',
      });
      expect(renamed.body.data).toMatchObject({ name: 'Tess Renamed', time_zone: 'Europe/Paris' });
      expect((await client.put('user/profile', {})).status).toBe(422);
      const cleared = await client.put<{ data: { time_zone: string | null } }>('user/profile', {
        time_zone: null,
      });
      expect(cleared.body.data.time_zone).toBeNull();
    });
  });

  describe('listening reports', () => {
    it('counts each event once, however often a batch is retried', async () => {
      const { client } = await newMember(server);
      const batch = { events: [event(phrases[0][0], new Date()), event(phrases[0][1], new Date())] };
      const first = await client.post<Recorded>('user/listening', batch);
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ accepted: 2, duplicates: 0, skipped: 0 });
      const retried = await client.post<Recorded>('user/listening', batch);
      expect(retried.body.data).toEqual({ accepted: 0, duplicates: 2, skipped: 0 });
      const twice = await Promise.all([
        client.post<Recorded>('user/listening', {
          events: [batch.events[0], event(phrases[0][0], new Date())],
        }),
        client.post<Recorded>('user/listening', { events: [batch.events[1]] }),
      ]);
      expect(twice.map((r) => r.body.data.accepted)).toEqual([1, 0]);
      // One batch sent twice at once (a retry while the first is being written): one of them wrote it.
      const fresh = { events: [event(phrases[0][0], new Date()), event(phrases[0][1], new Date())] };
      const racing = await Promise.all([1, 2, 3].map(() => client.post<Recorded>('user/listening', fresh)));
      expect(racing.map((r) => r.status)).toEqual([200, 200, 200]);
      const sum = (key: 'accepted' | 'duplicates') => racing.reduce((n, r) => n + r.body.data[key], 0);
      expect([sum('accepted'), sum('duplicates')]).toEqual([2, 4]);
      const stats = await client.get<Stats>('user/stats');
      expect(stats.body.data.phrases_heard).toBe(2);
      expect(stats.body.data.days.at(-1)!.minutes).toBe(0.2); // five events of 2 s
    });

    it('skips phrases the member may not read or that do not exist, and says how many', async () => {
      const { client } = await newMember(server);
      const res = await client.post<Recorded>('user/listening', {
        events: [
          event(phrases[0][0], new Date()),
          event(phrases[1][0], new Date()),
          event(999999, new Date()),
        ],
      });
      expect(res.body.data).toEqual({ accepted: 1, duplicates: 0, skipped: 2 });
      expect((await client.get<Stats>('user/stats')).body.data.phrases_heard).toBe(1);
      expect((await new ApiClient(server).post('user/listening', { events: [] })).status).toBe(401);
    });

    it('refuses a malformed batch with a message on the field, and more than 200 events', async () => {
      const { client } = await newMember(server);
      const good = event(phrases[0][0], new Date());
      const cases: Array<[unknown, string]> = [
        [{ events: [{ ...good, id: 'not-a-uuid' }] }, 'events.0.id'],
        [{ events: [{ ...good, ms: -1 }] }, 'events.0.ms'],
        [{ events: [{ ...good, ms: 1e12 }] }, 'events.0.ms'],
        [{ events: [{ ...good, at: 'yesterday' }] }, 'events.0.at'],
        // ISO 8601 forms that Date cannot read.
        [{ events: [{ ...good, at: '2026-W01-1' }] }, 'events.0.at'],
        [{ events: [{ ...good, at: '2026-01-01T10' }] }, 'events.0.at'],
        [{ events: [{ ...good, at: '20260101T101010Z' }] }, 'events.0.at'],
        [{ events: [[]] }, 'events'],
        [{ events: ['x'] }, 'events'],
        [{ events: [{ ...good, phrase_id: 'x' }] }, 'events.0.phrase_id'],
        [{ events: 'all of them' }, 'events'],
        [{}, 'events'],
        [{ events: Array.from({ length: 201 }, () => event(phrases[0][0], new Date())) }, 'events'],
      ];
      for (const [body, field] of cases) {
        const res = await client.post<{ errors: Record<string, string[]> }>('user/listening', body);
        expect([field, res.status]).toEqual([field, 422]);
        expect(Object.keys(res.body.errors)).toContain(field);
      }
      // Sent as written: JSON.stringify of an object literal would not keep a `__proto__` key.
      const withKey = (key: string) =>
        JSON.stringify({ events: [good] }).replace('{"id"', `{"${key}":{"x":1},"id"`);
      for (const key of ['__proto__', 'constructor', 'toString']) {
        const res = await client.request('POST', 'user/listening', withKey(key), {
          'Content-Type': 'application/json',
        });
        expect([res.status, res.body]).toEqual([
          422,
          {
            message: `property ${key} should not exist`,
            errors: { [`events.0.${key}`]: [`property ${key} should not exist`] },
          },
        ]);
      }
      const most = Array.from({ length: 200 }, () => event(phrases[0][0], new Date()));
      expect((await client.post<Recorded>('user/listening', { events: most })).body.data.accepted).toBe(200);
    });

    it('skips events shorter than a second one by one, and still takes the rest of the batch', async () => {
      const { client } = await newMember(server);
      // The clip lasts 3 s: under a second is not a listen; an hour is still taken.
      const res = await client.post<Recorded>('user/listening', {
        events: [0, 1, 999, 1000, 3004, 3_600_000].map((ms) => event(phrases[0][0], new Date(), ms)),
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ accepted: 3, duplicates: 0, skipped: 3 });
      const zeros = await client.post<Recorded>('user/listening', {
        events: Array.from({ length: 200 }, () => event(phrases[0][0], new Date(), 0)),
      });
      expect([zeros.status, zeros.body.data]).toEqual([200, { accepted: 0, duplicates: 0, skipped: 200 }]);
    });

    it('takes 30 reports a minute from a member, then 429 with Retry-After; other members go on', async () => {
      const clock = controlClock(server);
      try {
        const { client } = await newMember(server);
        const report = (from: ApiClient) =>
          from.post<Recorded>('user/listening', { events: [event(phrases[0][0], new Date())] });
        for (let i = 0; i < 30; i++) expect((await report(client)).status).toBe(200);
        const refused = await report(client);
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual({
          message: 'Too many listening reports. Please try again in a minute.',
        });
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
        // Per member, not per address: another member on the same machine is not held up.
        const neighbour = await newMember(server);
        const token = (neighbour.client as unknown as { token: string }).token;
        expect((await report(client.withToken(token))).status).toBe(200);
        clock.advance(MINUTE);
        expect((await report(client)).status).toBe(200);
      } finally {
        clock.restore();
      }
    });
  });

  describe('stats', () => {
    it("counts minutes, reviews and the streak by the member's days", async () => {
      const member = await newMember(server);
      const { client } = member;
      await client.put('user/profile', { time_zone: 'Asia/Tokyo' });
      // Tokyo is UTC+9, so its days begin at 15:00 UTC: these instants fall on other UTC dates.
      const tokyoToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
      const tokyo = (daysAgo: number, hour: number) =>
        new Date(Date.parse(`${tokyoToday}T00:00:00+09:00`) - daysAgo * 86_400_000 + hour * 3_600_000);
      const date = (daysAgo: number) =>
        new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(tokyo(daysAgo, 12));
      const heard = [
        event(phrases[0][0], tokyo(0, 0.01), 60_000), // today, just after Tokyo's midnight
        event(phrases[0][1], tokyo(1, 23.99), 90_000), // yesterday, just before it
      ];
      expect((await client.post<Recorded>('user/listening', { events: heard })).body.data.accepted).toBe(2);
      // Earlier listening, one day of it older than the 30 days a report may come late: written straight.
      await heardEarlier(member.id, phrases[0][0], [tokyo(2, 12), tokyo(4, 12), tokyo(40, 12)], 30_000);
      await client.post('user/words', { phrase_id: phrases[0][0], term: 'bonjour' });
      const [card] = (await client.get<Queue>('user/review')).body.data.cards;
      await client.post(`user/review/${card.id}`, { rating: 3 });

      const { data } = (await client.get<Stats>('user/stats')).body;
      expect(data.days).toHaveLength(30);
      expect(data.days.at(-1)!.date).toBe(tokyoToday);
      expect(data.days[0].date).toBe(date(29));
      const byDate = Object.fromEntries(data.days.map((d) => [d.date, d]));
      expect(byDate[tokyoToday]).toEqual({ date: tokyoToday, minutes: 1, reviews: 1 });
      expect(byDate[date(1)]).toEqual({ date: date(1), minutes: 1.5, reviews: 0 });
      expect(byDate[date(2)].minutes).toBe(0.5);
      expect(byDate[date(3)].minutes).toBe(0);
      expect(byDate[date(4)].minutes).toBe(0.5);
      expect(data.days.reduce((sum, d) => sum + d.minutes, 0)).toBe(3.5);
      expect(data).toMatchObject({
        streak_days: 3,
        phrases_heard: 2,
        words_saved: 1,
        reviews_done: 1,
        books_finished: 0,
      });
    });

    it('counts a streak longer than one look back, and skips reports more than 30 days old', async () => {
      const member = await newMember(server);
      const day = 86_400_000;
      const noon = Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`);
      // 150 days in a row, ending yesterday: the streak stands until today is over.
      const days = Array.from({ length: 150 }, (_, i) => new Date(noon - (i + 1) * day));
      await heardEarlier(member.id, phrases[0][0], days, 1000);
      expect((await member.client.get<Stats>('user/stats')).body.data.streak_days).toBe(150);
      const old = await member.client.post<Recorded>('user/listening', {
        events: [event(phrases[0][0], new Date(Date.now() - 31 * day))],
      });
      expect(old.body.data).toEqual({ accepted: 0, duplicates: 0, skipped: 1 });
      await member.client.post('user/listening', { events: [event(phrases[0][0], new Date())] });
      expect((await member.client.get<Stats>('user/stats')).body.data.streak_days).toBe(151);
    });

    it('finishes a book when every phrase of its last chapter has been heard', async () => {
      const { client } = await newAdmin(server);
      await client.post('user/listening', { events: [event(phrases[2][0], new Date())] });
      expect((await client.get<Stats>('user/stats')).body.data.books_finished).toBe(0);
      await client.post('user/listening', { events: [event(phrases[2][1], new Date())] });
      expect((await client.get<Stats>('user/stats')).body.data.books_finished).toBe(1);
    });
  });

  describe('review day and undo', () => {
    /** Gives a member `count` new cards straight away (the glossary has only two terms a phrase). */
    async function newCards(memberId: number, count: number) {
      const now = server.app.get(DataSource);
      await now.getRepository(SavedWord).insert(
        Array.from({ length: count }, (_, i) => ({
          userId: memberId,
          phraseId: phrases[0][0],
          term: `word ${i}`,
          meaning: `meaning ${i}`,
          createdAt: new Date(Date.now() - (count - i) * 1000),
          ...newCard(new Date()),
        })),
      );
    }

    it("renews the 20 new cards a day at the member's midnight", async () => {
      const clock = controlClock(server);
      try {
        // The next 09:30 UTC: 23:30 on Kiritimati (UTC+14), and the middle of the UTC day.
        const target = new Date();
        target.setUTCHours(9, 30, 0, 0);
        if (target.getTime() <= Date.now()) target.setUTCDate(target.getUTCDate() + 1);
        clock.advance(target.getTime() - Date.now());
        const members = [];
        for (const zone of ['Pacific/Kiritimati', null]) {
          const member = await newMember(server);
          if (zone) await member.client.put('user/profile', { time_zone: zone });
          await newCards(member.id, 21);
          const queue = await member.client.get<Queue>('user/review');
          expect(queue.body.data.new_count).toBe(20);
          for (const card of queue.body.data.cards)
            await member.client.post(`user/review/${card.id}`, { rating: 3 });
          expect((await member.client.get<Queue>('user/review')).body.data.new_count).toBe(0);
          members.push(member);
        }
        clock.advance(60 * MINUTE);
        const [kiritimati, utc] = await Promise.all(members.map((m) => m.client.get<Queue>('user/review')));
        expect(kiritimati.body.data).toMatchObject({ due_count: 20, new_count: 1 });
        expect(utc.body.data).toMatchObject({ due_count: 20, new_count: 0 });
      } finally {
        clock.restore();
      }
    });

    it('undoes the last answer exactly, once, and further answers in turn', async () => {
      const member = await newMember(server);
      await newCards(member.id, 2);
      const queue = (await member.client.get<Queue>('user/review')).body.data;
      const [first, second] = queue.cards;
      await member.client.post(`user/review/${first.id}`, { rating: 4 });
      await member.client.post(`user/review/${second.id}`, { rating: 1 });
      const undone = await Promise.all([
        member.client.post<{ data: { id: number; version: number; reps: number; state: number } }>(
          'user/review/undo',
        ),
        member.client.post('user/review/undo'),
      ]);
      // Two undos sent at once take back one answer each, or one of them is refused; never one answer twice.
      const ok = undone.filter((r) => r.status === 200);
      expect(ok.length).toBeGreaterThan(0);
      for (const r of undone) expect([200, 409]).toContain(r.status);
      const words = await member.client.get<{ data: Array<{ id: number; reps: number; state: number }> }>(
        'user/words',
      );
      const reps = Object.fromEntries(words.body.data.map((w) => [w.id, w.reps]));
      expect(reps[second.id]).toBe(0);
      expect(reps[first.id]).toBe(ok.length === 2 ? 0 : 1);
      if (ok.length === 1) {
        const again = await member.client.post<{ data: { id: number; reps: number; state: number } }>(
          'user/review/undo',
        );
        expect(again.body.data).toMatchObject({ id: first.id, reps: 0, state: 0 });
      }
      const back = (await member.client.get<Queue>('user/review')).body.data;
      expect(back).toMatchObject({ due_count: 0, new_count: 2 });
      expect((await member.client.get<Stats>('user/stats')).body.data.reviews_done).toBe(0);
      // Undo goes back through several answers to one card.
      const [card] = (await member.client.get<Queue>('user/review')).body.data.cards;
      await member.client.post(`user/review/${card.id}`, { rating: 1, version: card.version });
      await member.client.post(`user/review/${card.id}`, { rating: 3, version: card.version + 1 });
      expect((await member.client.post('user/review/undo')).status).toBe(200);
      expect((await member.client.post('user/review/undo')).status).toBe(200);
      expect((await member.client.get<Queue>('user/review')).body.data).toMatchObject({ new_count: 2 });
      const none = await member.client.post('user/review/undo');
      expect(none.status).toBe(404);
      expect(none.body).toEqual({ message: 'There is no answer to undo.' });
    });
  });
});
