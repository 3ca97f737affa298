import { randomUUID } from 'node:crypto';
import type { BookInsights } from '../learning/insights/insights.service';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook } from './books';
import { controlClock, MINUTE } from './clock';
import { fixture, form } from './fixtures';
import { startServer, type TestServer } from './harness';
import { StripeStandIn } from './stripe-stand-in';
import { stripeEnv, webhooks } from './stripe-webhooks';

type Recorded = { data: { accepted: number; duplicates: number; skipped: number } };

/** Every key of a JSON value, however deep. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
  return [];
}

describe('Readers insights (admin)', () => {
  let server: TestServer;
  const standIn = new StripeStandIn();
  const { setPlan } = webhooks(() => server);
  let admin: ApiClient;
  let code: string;
  /** Another book Amélie listens to, and one only an administrator has listened to. */
  let otherCode: string;
  let otherPhrase: number;
  let unreadCode: string;
  let unreadPhrase: number;
  /** phrases[chapter][position - 1]: chapter 1 has 2 phrases, chapters 2 and 3 have 3. */
  const phrases: number[][] = [];
  const people: Array<{ email: string; name: string }> = [];
  let clock: ReturnType<typeof controlClock>;

  /**
   * A member (with an active plan when `plan`), who reports hearing each phrase given, once per entry, a
   * minute apart: replays count at most once per member, phrase and minute.
   */
  async function listener(name: string, heard: number[], plan = false) {
    const member = await newMember(server, name);
    people.push({ email: member.email, name });
    if (plan) await setPlan(member.id, 'active');
    for (const phrase_id of heard) {
      const at = new Date().toISOString();
      const res = await member.client.post<Recorded>('user/listening', {
        events: [{ id: randomUUID(), phrase_id, ms: 1500, at }],
      });
      expect(res.body.data).toEqual({ accepted: 1, duplicates: 0, skipped: 0 });
      clock.advance(MINUTE);
    }
    return member.client;
  }

  async function place(client: ApiClient, chapter_no: number, position: number) {
    const res = await client.put('user/progress', { book_code: code, chapter_no, position });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    server = await startServer(undefined, stripeEnv(await standIn.start()));
    clock = controlClock(server);
    admin = (await newAdmin(server)).client;
    const made = await makeBook(admin);
    code = made.code;
    for (const [index, chapterId] of made.chapterIds.entries()) {
      if (index > 0) {
        const added = await admin.post(
          'admin/phrase',
          form({
            chapter_id: chapterId,
            phrase: `Merci beaucoup. (${index + 1})`,
            dictionary: 'merci — thank you',
            line_audio: [fixture('clip.mp3'), 'clip.mp3'],
          }),
        );
        expect(added.status).toBe(200);
      }
      const list = await admin.get<{ data: { phrases: Array<{ id: number }> } }>(
        `admin/phrase?chapter_id=${chapterId}`,
      );
      phrases.push(list.body.data.phrases.map((p) => p.id));
    }
    const firstPhrase = async (chapterId: number) =>
      (await admin.get<{ data: { phrases: Array<{ id: number }> } }>(`admin/phrase?chapter_id=${chapterId}`))
        .body.data.phrases[0].id;
    const other = await makeBook(admin);
    otherCode = other.code;
    otherPhrase = await firstPhrase(other.chapterIds[0]);
    const unread = await makeBook(admin);
    unreadCode = unread.code;
    unreadPhrase = await firstPhrase(unread.chapterIds[0]);

    const [c1, c2, c3] = phrases;
    // Chapter 1 (2 phrases) is free; chapters 2 and 3 (3 phrases) need a plan.
    const amelie = await listener(
      'Amélie Avril',
      // Two plays in another book, which stay out of this one's figures.
      [c1[0], c1[0], c1[1], c2[0], c2[1], c2[2], c3[0], otherPhrase, otherPhrase],
      true,
    );
    await place(amelie, 3, 1);
    const bastien = await listener('Bastien Brun', [c1[0], c1[1], c1[1], c1[1]]);
    const chloe = await listener('Chloé Carré', [c1[0], c1[0], c1[0], c1[1]]);
    const damien = await listener('Damien Dupuis', [c1[0], c1[1], c2[0], c2[0], c2[0], c2[0]], true);
    // "Did you understand?": each member's latest mark per phrase counts; Chloé changed her mind.
    const marks: Array<[ApiClient, number, string]> = [
      [amelie, c2[0], 'lost'],
      [amelie, c1[1], 'lost'],
      [bastien, c1[1], 'lost'],
      [chloe, c1[1], 'lost'],
      [chloe, c1[1], 'got'],
      [chloe, c1[0], 'unsure'],
      [damien, c2[0], 'lost'],
      [damien, c3[0], 'lost'],
      [amelie, otherPhrase, 'lost'],
      // An administrator's marks are proofreading too.
      [admin, c3[0], 'lost'],
      [admin, c1[0], 'lost'],
    ];
    for (const [client, phrase_id, mark] of marks)
      expect((await client.put('user/marks', { phrase_id, mark })).status).toBe(200);
    // Skips chapter 1's first phrase but hears its last, so has not stopped in chapter 1.
    await listener('Jeanne Joly', [c1[1], c2[0], c2[1]], true);
    // Start straight at chapter 3.
    await listener('Hugo Hamel', [c3[0], c3[0], c3[1]], true);
    await listener('Inès Izard', [c3[1], c3[1]], true);
    // A reading place and no listening: started, and reached the chapter the place is in.
    await place(await listener('Emma Esnault', []), 1, 2);
    await place(await listener('Félix Fabre', [], true), 3, 1);
    // Signed up and never opened the book.
    await listener('Gaspard Gilles', []);
    // Administrators proofreading are not readers: none of this counts.
    const proofread = await admin.post<Recorded>('user/listening', {
      events: [c3[2], c3[2], c3[2], c3[2], c1[0], c2[2], unreadPhrase, unreadPhrase].map((phrase_id) => ({
        id: randomUUID(),
        phrase_id,
        ms: 1500,
        at: new Date().toISOString(),
      })),
    });
    expect(proofread.body.data.accepted).toBe(8);
  });
  afterAll(async () => {
    clock.restore();
    await server.close();
    await standIn.stop();
  });

  it("answers started, the funnel, the replay ranking and each chapter's stop point", async () => {
    const [c1, c2, c3] = phrases;
    const res = await admin.get<{ data: BookInsights }>(`admin/book/${code}/insights`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        started: 9,
        chapters: [
          // Amélie, Bastien, Chloé, Damien, Jeanne heard it, Emma's place is in it. All heard its last phrase.
          { chapter_no: 1, title: 'Chapitre 1', reached: 6, stopped_at: null },
          // Amélie heard it all, Damien stopped at 1, Jeanne at 2: a tie, so the earliest.
          {
            chapter_no: 2,
            title: 'Chapitre 2',
            reached: 3,
            stopped_at: {
              chapter_no: 2,
              position: 1,
              text: 'Bonjour. (2)',
              listeners_stopped: 1,
              listeners: 3,
            },
          },
          // Amélie stopped at 1, Hugo and Inès at 2; Félix's place is here but he heard nothing.
          {
            chapter_no: 3,
            title: 'Chapitre 3',
            reached: 4,
            stopped_at: {
              chapter_no: 3,
              position: 2,
              text: 'Au revoir. (3)',
              listeners_stopped: 2,
              listeners: 3,
            },
          },
        ],
        most_replayed: [
          // 7 plays by 4 listeners, and 6 plays by 3: 3 replays each, chapter 1 first.
          { phrase_id: c1[0], chapter_no: 1, position: 1, text: 'Bonjour. (1)', replays: 3, listeners: 4 },
          { phrase_id: c2[0], chapter_no: 2, position: 1, text: 'Bonjour. (2)', replays: 3, listeners: 3 },
          { phrase_id: c1[1], chapter_no: 1, position: 2, text: 'Au revoir. (1)', replays: 2, listeners: 5 },
          // One replay each in chapter 3: position 1 first.
          { phrase_id: c3[0], chapter_no: 3, position: 1, text: 'Bonjour. (3)', replays: 1, listeners: 2 },
          { phrase_id: c3[1], chapter_no: 3, position: 2, text: 'Au revoir. (3)', replays: 1, listeners: 2 },
        ],
        most_lost: [
          // Amélie and Bastien (Chloé's latest mark is Got it), then Amélie and Damien: chapter 1 first.
          { phrase_id: c1[1], chapter_no: 1, position: 2, text: 'Au revoir. (1)', lost: 2 },
          { phrase_id: c2[0], chapter_no: 2, position: 1, text: 'Bonjour. (2)', lost: 2 },
          // Damien's; the administrator's marks are not counted.
          { phrase_id: c3[0], chapter_no: 3, position: 1, text: 'Bonjour. (3)', lost: 1 },
        ],
      },
    });
  });

  it('counts at most one replay per member, phrase and minute, however many reports come', async () => {
    const { code: flooded, chapterIds } = await makeBook(admin);
    const list = await admin.get<{ data: { phrases: Array<{ id: number }> } }>(
      `admin/phrase?chapter_id=${chapterIds[0]}`,
    );
    const phrase = list.body.data.phrases[0].id;
    const heard = (count: number) => ({
      events: Array.from({ length: count }, () => ({
        id: randomUUID(),
        phrase_id: phrase,
        ms: 1500,
        at: new Date().toISOString(),
      })),
    });
    const replays = async () =>
      (await admin.get<{ data: BookInsights }>(`admin/book/${flooded}/insights`)).body.data.most_replayed.map(
        (row) => [row.replays, row.listeners],
      );
    const { client } = await newMember(server);
    for (let i = 0; i < 5; i++)
      expect((await client.post<Recorded>('user/listening', heard(200))).body.data.accepted).toBe(200);
    expect(await replays()).toEqual([[1, 1]]);
    // The next minute, one more; a listener of their own adds theirs.
    clock.advance(MINUTE);
    await client.post('user/listening', heard(1));
    await (await newMember(server)).client.post('user/listening', heard(3));
    expect(await replays()).toEqual([[3, 2]]);
    // Reports claiming other times do not make other minutes: the minute is the server's.
    await client.post('user/listening', {
      events: [1, 2, 3].map((hoursAgo) => ({
        id: randomUUID(),
        phrase_id: phrase,
        ms: 1500,
        at: new Date(Date.now() - hoursAgo * 3_600_000).toISOString(),
      })),
    });
    expect(await replays()).toEqual([[3, 2]]);
  });

  it('names no member: no id, name or email in the answer', async () => {
    const res = await admin.get<{ data: BookInsights }>(`admin/book/${code}/insights`);
    expect(people.length).toBeGreaterThan(5);
    for (const { email, name } of people) {
      expect(res.text).not.toContain(email);
      expect(res.text).not.toContain(name);
      expect(res.text).not.toContain(name.split(' ')[0]);
    }
    expect(keysOf(res.body).filter((key) => /user|member|email|name/i.test(key))).toEqual([]);
  });

  it("keeps each book's figures to itself", async () => {
    const res = await admin.get<{ data: BookInsights }>(`admin/book/${otherCode}/insights`);
    expect(res.body).toEqual({
      data: {
        started: 1,
        chapters: [
          {
            chapter_no: 1,
            title: 'Chapitre 1',
            reached: 1,
            stopped_at: {
              chapter_no: 1,
              position: 1,
              text: 'Bonjour. (1)',
              listeners_stopped: 1,
              listeners: 1,
            },
          },
          { chapter_no: 2, title: 'Chapitre 2', reached: 0, stopped_at: null },
          { chapter_no: 3, title: 'Chapitre 3', reached: 0, stopped_at: null },
        ],
        most_replayed: [
          {
            phrase_id: otherPhrase,
            chapter_no: 1,
            position: 1,
            text: 'Bonjour. (1)',
            replays: 1,
            listeners: 1,
          },
        ],
        most_lost: [{ phrase_id: otherPhrase, chapter_no: 1, position: 1, text: 'Bonjour. (1)', lost: 1 }],
      },
    });
  });

  it('answers zeros for a book only an administrator has listened to, with every chapter in the funnel', async () => {
    const res = await admin.get<{ data: BookInsights }>(`admin/book/${unreadCode}/insights`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        started: 0,
        chapters: [1, 2, 3].map((n) => ({
          chapter_no: n,
          title: `Chapitre ${n}`,
          reached: 0,
          stopped_at: null,
        })),
        most_replayed: [],
        most_lost: [],
      },
    });
  });

  it('answers 404 for an unknown book, 403 to a member and 401 to a visitor', async () => {
    const unknown = await admin.get('admin/book/no-such-book/insights');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Book not found.' });
    const { client } = await newMember(server);
    const member = await client.get(`admin/book/${code}/insights`);
    expect(member.status).toBe(403);
    expect(member.body).toEqual({ message: 'You do not have permission to do this.' });
    const visitor = await new ApiClient(server).get(`admin/book/${code}/insights`);
    expect(visitor.status).toBe(401);
    expect(visitor.body).toEqual({ message: 'Your session has expired or is not valid. Please sign in.' });
  });
});
