import { DataSource } from 'typeorm';
import { newAdmin, type ApiClient } from './api-client';
import { makeBook } from './books';
import { bookForm, fixture, form } from './fixtures';
import { startServer, type TestServer } from './harness';

/**
 * Requests that race on one chapter's reading order. On PostgreSQL (the second pass of the suite) these run
 * in side-by-side transactions from a pool, which is where a MAX(position) + 1 without a lock would hand
 * out one position twice.
 */
describe('Concurrent edits of one chapter', () => {
  let server: TestServer;
  let admin: ApiClient;
  let chapterId: number;

  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    chapterId = (await makeBook(admin)).chapterIds[0];
  });
  afterAll(() => server.close());

  const append = (text: string) =>
    admin.post<{ data: { id: number } }>(
      'admin/phrase',
      form({
        chapter_id: chapterId,
        phrase: text,
        dictionary: 'x — y',
        line_audio: [fixture('clip.mp3'), 'clip.mp3'],
      }),
    );

  const positions = async () => {
    const rows = await server.app
      .get(DataSource)
      .createQueryBuilder()
      .select('p.position', 'position')
      .from('phrases', 'p')
      .where('p.chapter_id = :chapterId', { chapterId })
      .orderBy('p.position')
      .getRawMany<{ position: number }>();
    return rows.map((row) => row.position);
  };

  it('gives phrases appended at once distinct positions, with no gap', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => append(`Racing ${i}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(await positions()).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
  });

  it('gives books created at once with one title distinct codes, never a 500', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        admin.post<{ data: { book_code: string } }>('admin/book', bookForm({ title: 'Twin Title' })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.data.book_code)).size).toBe(6);
  });

  it('keeps the order whole when appends, deletes and a reorder race', async () => {
    const list = await admin.get<{ data: { phrases: Array<{ id: number }> } }>(
      `admin/phrase?chapter_id=${chapterId}`,
    );
    const ids = list.body.data.phrases.map((p) => p.id);
    const answers = await Promise.all([
      append('Late 1'),
      admin.delete(`admin/phrase/${ids[0]}`),
      admin.put(`admin/chapter/${chapterId}/phrase-order`, { ids: [...ids].reverse() }),
      admin.delete(`admin/phrase/${ids[5]}`),
      append('Late 2'),
    ]);
    // A reorder that no longer lists exactly the chapter's phrases is refused (422), never half-applied.
    for (const answer of answers) expect([200, 422]).toContain(answer.status);
    const final = await positions();
    expect(final).toEqual(Array.from({ length: final.length }, (_, i) => i + 1));
    expect(final).toHaveLength(14);
  });
});
