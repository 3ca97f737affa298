import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import yauzl from 'yauzl';
import { createBackup } from '../backup/backup';
import { restoreBackup } from '../backup/restore';
import type { Manifest } from '../backup/archive-format';
import { loadConfig, type AppConfig } from '../platform/config';
import { MIGRATIONS } from '../platform/database/schema';
import { PROJECT_ROOT } from '../platform/paths';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook, phraseIdsOf } from './books';
import { assertBuilt } from './built-server';
import { databaseUrlFor, onPostgres } from './database';
import { bookForm, fixture, form, mediaBytes, mediaFiles } from './fixtures';
import { rawGet, startServer, tempStorage, type TestServer } from './harness';
import { startS3, type TestS3 } from './s3';
import { makeZip, renameEntry } from './zips';
import { addPracticeRows, practiceRows } from './practice-rows';

/** The schema this code migrates to: its last migration's name. */
const LAST_MIGRATION = new MIGRATIONS[MIGRATIONS.length - 1]().name;

const CLIP = readFileSync(join(__dirname, 'fixtures', 'clip.mp3'));
const CLI = (name: string) => join(PROJECT_ROOT, 'dist', 'app', 'server', 'cli', `${name}.js`);

/** A fresh, empty target: a storage folder, its own database on PostgreSQL, its own bucket on S3. */
async function emptyTarget(): Promise<{ dir: string; config: AppConfig; s3: TestS3 | null }> {
  const dir = tempStorage();
  const databaseUrl = await databaseUrlFor(dir);
  const s3 = process.env.TEST_MEDIA_STORE === 's3' ? await startS3(`${dir}-s3`) : null;
  const config = loadConfig({
    STORAGE_DIR: dir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...s3?.env,
  });
  return { dir, config, s3 };
}

/** The configuration the backup command would read for a test server: its folder, database and bucket. */
function configOf(server: TestServer): AppConfig {
  return loadConfig({
    STORAGE_DIR: server.storageDir,
    ...(server.config.databaseUrl ? { DATABASE_URL: server.config.databaseUrl } : {}),
    ...server.s3?.env,
  });
}

/** Keeps editing the catalogue until stopped: replaces clips, adds and deletes phrases, makes and deletes books. */
function writerLoop(admin: ApiClient, chapterIds: number[], originals: number[]) {
  let running = true;
  let ops = 0;
  const failures: string[] = [];
  const added: number[] = [];
  let lastBook: string | null = null;
  const expectOk = (what: string, res: { status: number; text: string }) => {
    if (res.status !== 200) failures.push(`${what}: ${res.status} ${res.text}`);
  };
  const loop = (async () => {
    for (let i = 1; running; i++) {
      expectOk(
        'replace',
        await admin.post(
          `admin/phrase/${originals[i % originals.length]}?_method=put`,
          form({ phrase: `Bonjour ${i}.`, dictionary: 'a — b', line_audio: [fixture('clip.mp3'), 'c.mp3'] }),
        ),
      );
      const phrase = await admin.post<{ data: { id: number } }>(
        'admin/phrase',
        form({
          chapter_id: chapterIds[2],
          phrase: `Neu ${i}.`,
          dictionary: 'a — b',
          line_audio: [fixture('clip.mp3'), 'n.mp3'],
        }),
      );
      expectOk('add', phrase);
      added.push(phrase.body.data.id);
      if (added.length > 2) expectOk('delete', await admin.delete(`admin/phrase/${added.shift()}`));
      if (i % 4 === 0) {
        const book = await admin.post<{ data: { book_code: string } }>(
          'admin/book',
          bookForm({ title: `Livre ${i}` }),
        );
        expectOk('book', book);
        if (lastBook) expectOk('delete book', await admin.delete(`admin/book/${lastBook}`));
        lastBook = book.body.data.book_code;
      }
      ops++;
    }
  })();
  return {
    get ops() {
      return ops;
    },
    async stop() {
      running = false;
      await loop;
      return failures;
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Every entry of a (small, test-made) archive. */
function entriesOf(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(out));
      zip.readEntry();
    }),
  );
}

describe('npm run backup and npm run restore', () => {
  let server: TestServer;
  let admin: ApiClient;
  let code: string;
  let chapterIds: number[];
  let memberToken: string;
  let adminToken: string;
  let archive: string;
  let manifest: Manifest;

  beforeAll(async () => {
    assertBuilt();
    server = await startServer();
    const made = await newAdmin(server);
    admin = made.client;
    adminToken = (
      await new ApiClient(server).post<{ token: string }>('user/login', {
        email: made.email,
        password: made.password,
      })
    ).body.token;
    ({ code, chapterIds } = await makeBook(admin));
    const member = await newMember(server);
    const login = await new ApiClient(server).post<{ token: string }>('user/login', {
      email: member.email,
      password: member.password,
    });
    memberToken = login.body.token;
    // The practice modes' rows, on a phrase the writer loop below never deletes.
    await addPracticeRows(server, admin, member, (await phraseIdsOf(admin, chapterIds))[0][0]);
  });
  afterAll(() => server.close());

  it('backs up while a writer loop runs; the restore boots with every book, phrase, clip and session', async () => {
    const originals = (await phraseIdsOf(admin, chapterIds)).flat();
    const writer = writerLoop(admin, chapterIds, originals);
    await until(() => writer.ops >= 2);
    const opsBefore = writer.ops;
    archive = join(tempStorage(), 'backup.zip');
    const started = Date.now();
    ({ manifest } = await createBackup(configOf(server), archive));
    const took = Date.now() - started;
    const opsDuring = writer.ops - opsBefore;
    await until(() => writer.ops >= opsBefore + opsDuring + 1);
    expect(await writer.stop()).toEqual([]);
    console.log(
      `backup: ${manifest.files.length} file(s) in ${took} ms, ${opsDuring} writer round(s) during it`,
    );

    expect(manifest.engine).toBe(onPostgres ? 'postgres' : 'sqlite');
    expect(manifest.schema.migration).toBe(LAST_MIGRATION);
    expect(manifest.missingMedia).toEqual([]);
    expect(manifest.sessionSecret).toEqual(
      expect.objectContaining({ generatedInDatabase: true, jwtSecretConfigured: false }),
    );

    const target = await emptyTarget();
    const report = await restoreBackup(target.config, archive);
    await target.s3?.close(true);
    expect(report.mediaFiles).toBe(manifest.files.length - 1);
    const restored = await startServer(target.dir);
    try {
      const db = restored.app.get(DataSource);
      if (!onPostgres) {
        const sqlite = new Database(join(target.dir, 'lingonovel.sqlite'), { readonly: true });
        expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
        sqlite.close();
      }
      // Every row the snapshot had is there, each pointing at a stored file with the uploaded bytes.
      const phrases = await db.query<Array<{ chapter_id: number; position: number; audio_path: string }>>(
        'SELECT chapter_id, position, audio_path FROM phrases ORDER BY chapter_id, position',
      );
      const books = await db.query<Array<{ cover_path: string; sample_audio_path: string }>>(
        'SELECT cover_path, sample_audio_path FROM books',
      );
      expect(phrases.length).toBeGreaterThanOrEqual(originals.length);
      expect(await mediaFiles(restored)).toHaveLength(books.length * 4 + phrases.length);
      for (const phrase of phrases)
        expect((await mediaBytes(restored, phrase.audio_path)).equals(CLIP)).toBe(true);
      // Positions are whole in each chapter: the snapshot is one moment, not a mix.
      for (const id of new Set(phrases.map((p) => p.chapter_id))) {
        const positions = phrases.filter((p) => p.chapter_id === id).map((p) => Number(p.position));
        expect(positions).toEqual(positions.map((_, i) => i + 1));
      }
      for (const book of books) {
        for (const width of [320, 640, 960])
          expect((await rawGet(`${restored.baseUrl}/media/${book.cover_path}-${width}.webp`)).status).toBe(
            200,
          );
        const sample = await rawGet(`${restored.baseUrl}/media/${book.sample_audio_path}`);
        expect([sample.status, sample.body.equals(CLIP)]).toEqual([200, true]);
      }
      // The clips are served, locked chapters' through their signed URLs.
      const reader = new ApiClient(restored, adminToken);
      for (const n of [1, 2, 3]) {
        const chapter = await reader.get<{ data: { phrases: Array<{ audio: string }> } }>(
          `guest/book/${code}/chapter/${n}`,
        );
        expect(chapter.status).toBe(200);
        for (const phrase of chapter.body.data.phrases) {
          const clip = await rawGet(restored.baseUrl + phrase.audio);
          expect([clip.status, clip.body.equals(CLIP)]).toEqual([200, true]);
        }
      }
      // The generated session secret came back with the database: a token from before still works.
      const profile = await new ApiClient(restored, memberToken).get<{ data: { speaks: string[] } }>(
        'user/profile',
      );
      expect([profile.status, profile.body.data.speaks]).toEqual([200, ['pt-BR', 'en']]);
      // The practice modes' rows came back too (the writer loop touches none of them).
      const practice = await practiceRows(db);
      expect(practice).toEqual(await practiceRows(server.app.get(DataSource)));
      expect(Object.values(practice).map((rows) => rows.length)).toEqual([2, 1, 1, 1, 1]);
    } finally {
      await restored.close();
    }
  });

  it('refuses a target that is not empty unless --force, then replaces it', async () => {
    const target = await emptyTarget();
    await restoreBackup(target.config, archive);
    await expect(restoreBackup(target.config, archive)).rejects.toThrow(
      /^Refusing to restore: .*(already holds a database|database in DATABASE_URL is not empty).*add --force/,
    );
    // --force: the database is replaced and a file the archive does not have is deleted.
    const report = await restoreBackup(target.config, archive, { force: true });
    expect(report.mediaFiles).toBe(manifest.files.length - 1);
    await target.s3?.close(true);
    const restored = await startServer(target.dir);
    try {
      expect((await new ApiClient(restored, memberToken).get('user/profile')).status).toBe(200);
      expect((await new ApiClient(restored).get(`guest/book/${code}/chapter/1`)).status).toBe(200);
    } finally {
      await restored.close();
    }
  });

  /** The built restore command into an empty target of the archive's engine (media in the folder). */
  const restoreCli = async (file: string, dir = tempStorage()) =>
    spawnSync(process.execPath, [CLI('restore'), '--in', file], {
      env: {
        ...process.env,
        STORAGE_DIR: dir,
        DATABASE_URL: (await databaseUrlFor(dir)) ?? '',
        MEDIA_STORE: 'local',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('refuses an archive whose schema is newer than the code, in one clear line', async () => {
    const entries = await entriesOf(archive);
    const edited = JSON.parse(entries.get('manifest.json')!.toString()) as Manifest;
    edited.schema.migration = 'FromTheFuture1893456000000';
    entries.set('manifest.json', Buffer.from(JSON.stringify(edited)));
    const copy = join(tempStorage(), 'newer.zip');
    writeFileSync(copy, await makeZip([...entries].map(([name, data]) => ({ name, data }))));
    const run = await restoreCli(copy);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^Restore failed: .*newer schema \\(FromTheFuture1893456000000\\) than this version of Lingonovel knows \\(its last is ${LAST_MIGRATION}\\)`,
      ),
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a damaged archive, a file that is no archive and unsafe names, writing nothing', async () => {
    const dir = tempStorage();
    const flipped = join(tempStorage(), 'flipped.zip');
    const bytes = readFileSync(archive);
    // Bytes in the middle of a stored clip: the zip still opens, the checksum catches it.
    const media = bytes.indexOf(CLIP.subarray(200, 260));
    for (let i = 0; i < 16; i++) bytes[media + i] ^= 0xff;
    writeFileSync(flipped, bytes);
    const damaged = await restoreCli(flipped, dir);
    expect(damaged.status).toBe(1);
    expect(damaged.stderr).toMatch(
      /^Restore failed: .*flipped\.zip is damaged: media\/.* does not match its checksum/,
    );
    expect(damaged.stderr).not.toMatch(/\n\s+at /);

    const text = join(tempStorage(), 'notes.zip');
    writeFileSync(text, 'just some text, not a zip\n'.repeat(10));
    expect((await restoreCli(text, dir)).stderr).toMatch(
      /^Restore failed: .*notes\.zip is damaged or is not a Lingonovel backup/,
    );

    const truncated = join(tempStorage(), 'truncated.zip');
    copyFileSync(archive, truncated);
    writeFileSync(truncated, readFileSync(archive).subarray(0, 2000));
    expect((await restoreCli(truncated, dir)).stderr).toMatch(/is damaged or is not a Lingonovel backup/);

    const escaping = join(tempStorage(), 'escaping.zip');
    writeFileSync(escaping, renameEntry(readFileSync(archive), 'media/lines/', '../../lines/'));
    expect((await restoreCli(escaping, dir)).stderr).toMatch(
      /^Restore failed: .*escaping\.zip is damaged or is not a Lingonovel backup \(invalid relative path: \.\.\/\.\.\/lines\//,
    );

    expect(spawnSync('ls', ['-A', join(dir, 'media', 'lines')], { encoding: 'utf8' }).stdout).toBe('');
  });

  it('backs up with the built command and says what it wrote', () => {
    const out = join(tempStorage(), 'cli.zip');
    const env = {
      ...process.env,
      STORAGE_DIR: server.storageDir,
      DATABASE_URL: server.config.databaseUrl ?? '',
      ...server.s3?.env,
    };
    const run = spawnSync(process.execPath, [CLI('backup'), '--out', out], {
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    // (On the S3 pass the SDK warns about Node 20 on stderr; nothing else may be there.)
    expect(run.stderr).not.toContain('failed');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^Backed up the (SQLite|PostgreSQL) database \\(schema ${LAST_MIGRATION}\\) and \\d+ media file\\(s\\)`,
      ),
    );
    expect(run.stdout).toContain('app_meta');
    const again = spawnSync(process.execPath, [CLI('backup'), '--out', out], { env, encoding: 'utf8' });
    expect([again.status, again.stderr.trim()]).toEqual([
      1,
      `Backup failed: ${out} already exists; give the backup a new file name.`,
    ]);
    const usage = spawnSync(process.execPath, [CLI('backup')], { env, encoding: 'utf8' });
    expect(usage.stderr).toContain('Backup failed: --out FILE is required');
  });

  it("keeps a killed backup's database copy private and removes its work folder on the next run", async () => {
    const folder = tempStorage();
    const out = join(folder, 'killed.zip');
    const env = {
      ...process.env,
      STORAGE_DIR: server.storageDir,
      DATABASE_URL: server.config.databaseUrl ?? '',
      ...server.s3?.env,
    };
    // Opening a FIFO for writing waits for a reader that never comes: the backup stops once its database
    // snapshot is written, with its work folder in place, until it is killed.
    expect(spawnSync('mkfifo', [`${out}.partial`]).status).toBe(0);
    const killed = spawn(process.execPath, [CLI('backup'), '--out', out], { env, stdio: 'ignore' });
    const workFolders = () => readdirSync(folder).filter((name) => name.startsWith('.lingonovel-backup-'));
    const database = server.config.databaseUrl ? 'lingonovel.pgdump' : 'lingonovel.sqlite';
    await until(() => workFolders().some((name) => existsSync(join(folder, name, database))));
    await new Promise((resolve) => {
      killed.once('exit', resolve);
      killed.kill('SIGKILL');
    });
    rmSync(`${out}.partial`);

    const [stale] = workFolders();
    const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);
    expect(modeOf(join(folder, stale))).toBe('700');
    const files = readdirSync(join(folder, stale));
    expect(files).toContain(database);
    for (const file of files) expect([file, modeOf(join(folder, stale, file))]).toEqual([file, '600']);

    // A backup running right now (this process) keeps its folder.
    const running = `.lingonovel-backup-${hostname()}-${process.pid}-abcdef`;
    mkdirSync(join(folder, running));
    const next = spawnSync(process.execPath, [CLI('backup'), '--out', join(folder, 'next.zip')], {
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(next.status).toBe(0);
    expect(next.stdout).toContain(
      `Removed ${join(folder, stale)}, the work folder of an interrupted backup.`,
    );
    expect(readdirSync(folder).sort()).toEqual([running, 'next.zip']);
  });
});
