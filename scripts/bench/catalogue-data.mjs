// The bench's catalogue: the demo books, then copies of them (sharing their media) up to BOOKS, spread over
// languages and CEFR levels, each with the chapter rows of its original (so that every book has a free
// chapter for the sitemap) and its counted words (for coverage), and a pseudo-word in its title and one in its description for the searches to
// find. Written straight into the SQLite file (the server is stopped), with the search columns the
// application's own normaliser computes; `npm run migrate-to` then copies the same rows to PostgreSQL.
// No ANALYZE on SQLite: the application never runs it, so its plans are made without statistics.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

/** Languages of the copies (null: books without one, `lang=none`); levels likewise. */
export const LANGUAGES = ['es', 'fr', 'de', 'it', 'nl', 'pt-PT', 'sv', 'pl', null];
export const LEVELS = ['A1', 'A2', 'B1', 'B2', 'C1', 'C2', null];

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'sto', 'va', 'bel', 'dor', 'fin', 'gra', 'tul', 'zem'];

/** 144 made-up words ("kalo", "kami"…), none of them in the demo's own text. */
export const WORDS = SYLLABLES.flatMap((a) => SYLLABLES.map((b) => `${a}${b}`)).filter(
  (word, i, all) => all.indexOf(word) === i,
);

/** Inserts the copies into the SQLite installation in `storage`; returns the number of books. */
export async function seedCopies(root, storage, books) {
  const { searchKey } = await import(join(root, 'dist/app/server/content/catalogue/search-key.js'));
  const db = new Database(join(storage, 'lingonovel.sqlite'));
  const demo = db.prepare('SELECT * FROM books ORDER BY id').all();
  const chaptersOf = db.prepare(
    'SELECT id, title, chapter_no FROM chapters WHERE book_id = ? ORDER BY chapter_no',
  );
  // Each copy's chapters take their original's counted words (chapter_words, docs/word-status.md).
  const wordsOf = db.prepare('SELECT form, word, count FROM chapter_words WHERE chapter_id = ?');
  const insertWord = db.prepare(
    'INSERT INTO chapter_words (chapter_id, form, book_id, word, count) VALUES (?, ?, ?, ?, ?)',
  );
  const demoChapters = new Map(demo.map((book) => [book.id, chaptersOf.all(book.id)]));
  const insertBook = db.prepare(`INSERT INTO books (book_code, title, author, narrated_by, description,
    difficulty, hours, minutes, cover_path, sample_audio_path, sample_audio_ms, sample_text, language, cefr,
    title_key, search_text) VALUES (@book_code, @title, @author, @narrated_by, @description, @difficulty,
    @hours, @minutes, @cover_path, @sample_audio_path, @sample_audio_ms, @sample_text, @language, @cefr,
    @title_key, @search_text)`);
  const insertChapter = db.prepare('INSERT INTO chapters (book_id, title, chapter_no) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let n = demo.length; n < books; n++) {
      const source = demo[n % demo.length];
      const title = `${source.title} ${WORDS[n % WORDS.length]} ${n}`;
      const description = `${source.description} ${WORDS[(n * 7 + 3) % WORDS.length]}`;
      const text = [title, source.author, source.narrated_by, description].join(' ');
      const { lastInsertRowid } = insertBook.run({
        ...source,
        book_code: `${source.book_code}-copy-${n}`,
        title,
        description,
        language: LANGUAGES[n % LANGUAGES.length],
        cefr: LEVELS[Math.floor(n / LANGUAGES.length) % LEVELS.length],
        hours: n % 7,
        minutes: (n * 13) % 60,
        title_key: (searchKey(title) || ' ').slice(0, 400),
        search_text: searchKey(text),
      });
      for (const chapter of demoChapters.get(source.id)) {
        const copy = insertChapter.run(lastInsertRowid, chapter.title, chapter.chapter_no).lastInsertRowid;
        for (const word of wordsOf.all(chapter.id))
          insertWord.run(copy, word.form, lastInsertRowid, word.word, word.count);
      }
    }
  })();
  const count = db.prepare('SELECT COUNT(*) AS n FROM books').get().n;
  db.close();
  return count;
}

/**
 * Copies the SQLite installation to a new database on `clusterUrl` with `npm run migrate-to` (the server
 * stopped), then ANALYZE, as autovacuum would soon do on a live server: plans are made from statistics.
 */
export async function copyToPostgres(root, storage, clusterUrl) {
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE lingonovel_bench');
  await admin.end();
  const url = clusterUrl.replace(/\/[^/]*$/, '/lingonovel_bench');
  const result = spawnSync(
    process.execPath,
    [join(root, 'dist/app/server/cli/migrate-to.js'), '--database-url', url],
    { env: { ...process.env, STORAGE_DIR: storage }, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`migrate-to failed:\n${result.stdout}${result.stderr}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('ANALYZE');
  await client.end();
  return url;
}
