import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { PROJECT_ROOT } from '../platform/paths';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook, phraseIdsOf } from './books';
import { fixture, form, mediaFiles } from './fixtures';
import { assertBuilt } from './built-server';
import { databaseUrlFor, onPostgres } from './database';
import { startServer, tempStorage } from './harness';
import { startS3, type TestS3 } from './s3';
import { addPracticeRows, practiceRows } from './practice-rows';

const CLI = join(PROJECT_ROOT, 'dist', 'app', 'server', 'cli', 'migrate-to.js');

/** Moving a SQLite installation with local media to PostgreSQL and a bucket (PostgreSQL pass only). */
(onPostgres ? describe : describe.skip)('npm run migrate-to', () => {
  let s3: TestS3;
  beforeAll(async () => {
    assertBuilt();
    s3 = await startS3(`${tempStorage()}-s3`);
  });
  afterAll(() => s3?.close());

  it('moves every row and clip, keeps sessions, resets the sequences, and refuses a second run', async () => {
    // A SQLite installation, media in its folder, whatever engine the suite runs on.
    const sqliteDir = tempStorage();
    const old = await startServer(sqliteDir, { DATABASE_URL: '', MEDIA_STORE: 'local' });
    const admin = await newAdmin(old);
    const { code, chapterIds } = await makeBook(admin.client);
    const member = await newMember(old);
    const login = await new ApiClient(old).post<{ token: string }>('user/login', {
      email: member.email,
      password: member.password,
    });
    const before = await new ApiClient(old).get<{ data: { phrases: Array<{ id: number }> } }>(
      `guest/book/${code}/chapter/1`,
    );
    // A replaced clip and a deleted phrase's clip wait in the trash; nothing refers to them any more.
    const [, second, third] = await phraseIdsOf(admin.client, chapterIds);
    const replaced = await admin.client.post(
      `admin/phrase/${second[0]}?_method=put`,
      form({ phrase: 'Encore.', dictionary: 'a — b', line_audio: [fixture('clip.mp3'), 'c.mp3'] }),
    );
    expect(replaced.status).toBe(200);
    expect((await admin.client.delete(`admin/phrase/${third[0]}`)).status).toBe(200);
    const trashed = (
      await old.app.get(DataSource).query<Array<{ key: string }>>('SELECT "key" FROM media_trash')
    ).map((row) => row.key);
    expect(trashed).toHaveLength(2);
    const kept = (await mediaFiles(old)).filter((key) => !trashed.includes(key));
    // A member's last saved word, deleted just before the move: it waits in word_trash for Undo.
    const words = member.client;
    const [first] = await phraseIdsOf(admin.client, chapterIds);
    const word = await words.post<{ data: { id: number } }>('user/words', {
      phrase_id: first[0],
      term: 'bonjour',
    });
    expect(word.status).toBe(200);
    expect((await words.delete(`user/words/${word.body.data.id}`)).status).toBe(200);
    // The practice modes' rows: translations, the member's languages, a dictation, a mark, a phrase card.
    await addPracticeRows(old, admin.client, member, first[0]);
    const practice = await practiceRows(old.app.get(DataSource));
    expect(Object.values(practice).map((rows) => rows.length)).toEqual([2, 1, 1, 1, 1]);
    // While the server still runs on the installation, the copy is refused before anything is written.
    const refused = spawnSync(
      process.execPath,
      [CLI, '--database-url', (await databaseUrlFor(tempStorage()))!],
      { env: { ...process.env, STORAGE_DIR: sqliteDir }, encoding: 'utf8', timeout: 60_000 },
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      `Migration failed: a Lingonovel server is running on STORAGE_DIR ${sqliteDir}: stop it first`,
    );
    await old.close(true);

    const targetUrl = (await databaseUrlFor(tempStorage()))!;
    const migrate = () =>
      spawnSync(process.execPath, [CLI, '--database-url', targetUrl, '--media-store', 's3'], {
        env: { ...process.env, STORAGE_DIR: sqliteDir, ...s3.env },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const run = migrate();
    expect(run.stderr).not.toContain('Migration failed');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('phrases: 5 row(s)');
    expect(run.stdout).toContain('phrase_translations: 2 row(s)');
    // The search's words are written again from the copied book (its 12 distinct words), not copied.
    expect(run.stdout).toContain('book_words: 12 row(s), rebuilt from the books');
    expect(run.stdout).toContain(`media: ${kept.length} file(s) copied to bucket`);
    expect(run.stdout).toContain(
      'media: 2 replaced or deleted file(s) left behind: nothing refers to them any more',
    );

    const moved = await startServer(tempStorage(), { DATABASE_URL: targetUrl, ...s3.env });
    try {
      expect(moved.config.mediaStore.kind).toBe('s3');
      expect(await mediaFiles(moved)).toEqual(kept);
      const guest = new ApiClient(moved);
      const chapter = await guest.get<{ data: { phrases: Array<{ id: number; audio: string }> } }>(
        `guest/book/${code}/chapter/1`,
      );
      expect(chapter.body.data.phrases.map((p) => p.id)).toEqual(before.body.data.phrases.map((p) => p.id));
      const clip = await fetch(moved.baseUrl + chapter.body.data.phrases[0].audio);
      expect(clip.status).toBe(200);
      expect(Buffer.from(await clip.arrayBuffer())).toEqual(
        Buffer.from(await fixture('clip.mp3').arrayBuffer()),
      );
      expect(await practiceRows(moved.app.get(DataSource))).toEqual(practice);
      const translated = await guest.get<{ data: { phrases: Array<{ translations: object }> } }>(
        `guest/book/${code}/chapter/1?translations=en`,
      );
      expect(translated.body.data.phrases[0].translations).toEqual({ en: 'Hello, world.' });
      const found = await guest.get<{ data: Array<{ book_code: string }> }>('guest/books?q=lefevre%20lyon');
      expect(found.body.data.map((book) => book.book_code)).toEqual([code]);
      // The member's session from before the move still works: the secret moved with the rows.
      expect((await new ApiClient(moved, login.body.token).get('user/profile')).status).toBe(200);
      // New rows get new ids: the sequences were moved past the copied ones.
      const adminLogin = await guest.post<{ token: string }>('user/login', {
        email: admin.email,
        password: admin.password,
      });
      const added = await new ApiClient(moved, adminLogin.body.token).post<{
        data: { id: number; position: number };
      }>(
        'admin/phrase',
        form({
          chapter_id: chapterIds[0],
          phrase: 'New',
          dictionary: 'a — b',
          line_audio: [fixture('clip.mp3'), 'clip.mp3'],
        }),
      );
      expect(added.status).toBe(200);
      expect(added.body.data.id).toBeGreaterThan(6);
      expect(added.body.data.position).toBe(3);
      expect((await newMember(moved)).id).toBeGreaterThan(2);
      // Undo still works after the move, and the word's id was not handed out again meanwhile.
      const mover = new ApiClient(moved, login.body.token);
      const fresh = await mover.post<{ data: { id: number } }>('user/words', {
        phrase_id: first[1],
        term: 'bonjour',
      });
      expect(fresh.body.data.id).toBeGreaterThan(word.body.data.id);
      const restored = await mover.post<{ data: { id: number } }>(`user/words/${word.body.data.id}/restore`);
      expect([restored.status, restored.body.data.id]).toEqual([200, word.body.data.id]);
    } finally {
      await moved.close();
    }

    const again = migrate();
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(
      'Migration failed: The target database already holds data (table users is not empty); use an empty database.',
    );
  });
});
