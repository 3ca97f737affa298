import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ListeningReceivedMinute1763830800000 } from '../platform/migrations/1763830800000-ListeningReceivedMinute';
import { newAdmin, newMember } from './api-client';
import { makeBook, phraseIdsOf } from './books';
import { controlClock, MINUTE } from './clock';
import { startServer, type TestServer } from './harness';

describe('The ListeningReceivedMinute migration', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('gives events kept before it the minute they were received in, and goes back down', async () => {
    const admin = (await newAdmin(server)).client;
    const phrase = (await phraseIdsOf(admin, (await makeBook(admin)).chapterIds))[0][0];
    const { client } = await newMember(server);
    const clock = controlClock(server);
    try {
      // More events than one page of the backfill, over three minutes.
      for (let batch = 0; batch < 6; batch++) {
        if (batch % 2 === 0) clock.advance(MINUTE);
        const events = Array.from({ length: 200 }, () => ({
          id: randomUUID(),
          phrase_id: phrase,
          ms: 1500,
          at: new Date().toISOString(),
        }));
        expect((await client.post('user/listening', { events })).status).toBe(200);
      }
    } finally {
      clock.restore();
    }
    const db = server.app.get(DataSource);
    const read = () =>
      db.query<Array<{ minute: number | string; n: number | string }>>(
        'SELECT received_minute AS minute, COUNT(*) AS n FROM listening_events GROUP BY received_minute ORDER BY received_minute',
      );
    const written = (await read()).map((row) => [Number(row.minute), Number(row.n)]);
    expect(written.map(([, n]) => n)).toEqual([400, 400, 400]);
    expect(written.map(([minute]) => minute - written[0][0])).toEqual([0, 1, 2]);

    const migration = new ListeningReceivedMinute1763830800000();
    const runner = db.createQueryRunner();
    try {
      await migration.down(runner);
      expect(
        (await runner.getTable('listening_events'))!.findColumnByName('received_minute'),
      ).toBeUndefined();
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect((await read()).map((row) => [Number(row.minute), Number(row.n)])).toEqual(written);
  });
});
