import { DataSource } from 'typeorm';
import { ReviewLog } from '../learning/words/review-log.entity';
import { FsrsOptimiser } from '../learning/words/fsrs-optimiser';
import { ApiClient, newAdmin, newMember } from './api-client';
import { bookForm, fixture, form } from './fixtures';
import { startServer, type TestServer } from './harness';

/**
 * A member's own FSRS parameters (docs/practice.md, "Your own FSRS"): computed by the optimiser once they
 * have 400 reviews, at most weekly; their intervals then differ from the defaults'; /review's answer says
 * which parameters schedule.
 */

type Next = Record<'again' | 'hard' | 'good' | 'easy', { due_at: string }>;
type Queue = {
  data: {
    cards: Array<{ id: number; next: Next }>;
    parameters: { own: boolean; computed_at: string | null; reviews: number; needed: number };
  };
};

const TERMS = Array.from({ length: 40 }, (_, i) => `palabra${i}`);
const DAY = 86_400_000;

describe('Own FSRS parameters', () => {
  let server: TestServer;
  let db: DataSource;
  let phraseId: number;

  beforeAll(async () => {
    server = await startServer();
    db = server.app.get(DataSource);
    const admin = (await newAdmin(server)).client;
    const book = await admin.post<{ data: { id: number } }>('admin/book', bookForm({ language: 'es' }));
    const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: 'Uno',
      chapter_no: 1,
      book_id: book.body.data.id,
    });
    const phrase = await admin.post<{ data: { id: number } }>(
      'admin/phrase',
      form({
        chapter_id: chapter.body.data.id,
        phrase: TERMS.join(' '),
        dictionary: TERMS.map((term) => `${term}: word`).join('\n'),
        line_audio: [fixture('clip.mp3'), 'clip.mp3'],
      }),
    );
    phraseId = phrase.body.data.id;
  }, 60_000);
  afterAll(() => server.close());

  /** A member who saved every word of the phrase (new cards). */
  async function learner(): Promise<{ client: ApiClient; id: number; words: number[] }> {
    const { client, id } = await newMember(server);
    const words: number[] = [];
    for (const term of TERMS) {
      const saved = await client.post<{ data: { id: number } }>('user/words', { phrase_id: phraseId, term });
      words.push(saved.body.data.id);
    }
    return { client, id, words };
  }

  it('computes a member’s own parameters from 400 reviews, and they change the intervals', async () => {
    const strong = await learner();
    const plain = await learner();
    // 13 reviews a word, the gaps growing from 3 days to years, nearly always remembered: a strong memory,
    // for which the optimiser raises the first stabilities (about 2.6 times the defaults').
    const logs: Partial<ReviewLog>[] = [];
    for (const [w, wordId] of strong.words.entries()) {
      const gaps = Array.from({ length: 13 }, (_, r) => (r === 0 ? 0 : Math.round(3 * 1.8 ** r)));
      const total = gaps.reduce((sum, gap) => sum + gap, 0);
      let at = Date.now() - (total + 1) * DAY + w * 60_000;
      for (let r = 0; r < 13; r++) {
        at += gaps[r] * DAY;
        logs.push({
          wordId,
          userId: strong.id,
          rating: (w + r) % 13 === 0 && r > 0 ? 1 : 3,
          state: r === 0 ? 0 : 2,
          due: new Date(at),
          reviewedAt: new Date(at),
        });
      }
    }
    await db.getRepository(ReviewLog).insert(logs);

    const before = await strong.client.get<Queue>('user/review');
    expect(before.body.data.parameters).toEqual({ own: false, computed_at: null, reviews: 520, needed: 400 });

    const optimiser = server.app.get(FsrsOptimiser);
    expect(await optimiser.scan()).toBe(1);
    // At most weekly: nobody is due again now.
    expect(await optimiser.scan()).toBe(0);

    const after = await strong.client.get<Queue>('user/review');
    expect(after.body.data.parameters).toMatchObject({ own: true, reviews: 520 });
    expect(Date.parse(after.body.data.parameters.computed_at!)).not.toBeNaN();
    // The member without reviews keeps the defaults.
    const other = await plain.client.get<Queue>('user/review');
    expect(other.body.data.parameters).toMatchObject({ own: false, reviews: 0 });

    // The same new card, scheduled by each member's parameters: other intervals.
    const dues = (queue: Queue) => Object.values(queue.data.cards[0].next).map((next) => next.due_at);
    expect(dues(after.body)).not.toEqual(dues(other.body));
  }, 120_000);
});
