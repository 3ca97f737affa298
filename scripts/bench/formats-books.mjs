// The books of the formats bench (scripts/bench/formats-timing.mjs): generated whole-book zips
// (server/publishing/imports/book-archive.ts's layout) put in through the admin book import, preview then commit, as an
// administrator would. Every phrase gets its own stored clip (the commit stores each file under a random key),
// so the server measures each one, although their content is the same short tone.
import { execFileSync } from 'node:child_process';
import { createWriteStream, openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';

const root = new URL('../..', import.meta.url).pathname;
/** A demo cover: the import takes any JPEG, PNG or WebP named cover.*. */
const COVER = join(root, 'server/seed/demo/covers/le-petit-voyage.jpg');

const SENTENCES = [
  ['Léa regarde la mer depuis la fenêtre du train.', 'mer — sea\nfenêtre — window'],
  ['Sa grand-mère l’attend sur le quai avec un grand sourire.', 'quai — platform\nsourire — smile'],
  ['Le contrôleur lui demande son billet, puis il lui souhaite un bon voyage.', 'billet — ticket'],
  ['Il pleut un peu, mais le ciel devient bleu près de la côte.', 'pleuvoir — to rain\ncôte — coast'],
  ['Elles marchent jusqu’au port et achètent des crêpes.', 'port — harbour\nacheter — to buy'],
];

const ffmpeg = (args) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);

/** One clip of `seconds` of a 440 Hz tone, constant 128 kbit/s mono MP3 at 44.1 kHz. */
export function makeClip(dir, seconds) {
  const path = join(dir, 'clip.mp3');
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
    '-ac',
    '1',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    path,
  ]);
  return path;
}

/** A file's length as decoding it gives, in microseconds (the way the server measures: samples over rate). */
export function decodedUs(path) {
  const pcm = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-ac', '1', '-f', 's16le', '-'], {
    maxBuffer: 2 ** 30,
  });
  return Math.round(((pcm.length / 2) * 1_000_000) / 44_100);
}

const pad = (n) => String(n).padStart(3, '0');
const tsvField = (text) => (/[\t\n"]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/**
 * Writes a book's zip to `path`, streamed to disk (clips stored, not deflated: MP3 does not shrink).
 * `chapters` is a list of phrase counts.
 */
export async function writeBookZip(path, { code, title, chapters }, clip) {
  const zip = new yazl.ZipFile();
  const book = {
    format: 'lingonovel-book',
    version: 2,
    book_code: code,
    title,
    author: 'Bench Author',
    narrated_by: 'Bench Narrator',
    hours: 1,
    minutes: 45,
    description: 'A generated book for the formats benchmark.',
    difficulty: 'Easy',
    sample_text: SENTENCES[0][0],
    language: 'fr',
    cefr: 'A2',
  };
  zip.addBuffer(Buffer.from(JSON.stringify(book, null, 2)), 'book.json');
  zip.addFile(COVER, 'cover.jpg', { compress: false });
  zip.addFile(clip, 'sample.mp3', { compress: false });
  for (const [c, phrases] of chapters.entries()) {
    const folder = `chapters/${pad(c + 1)}`;
    zip.addBuffer(
      Buffer.from(JSON.stringify({ title: `Chapter ${c + 1}`, number: c + 1 })),
      `${folder}/chapter.json`,
    );
    const rows = ['phrase\tdictionary\taudio'];
    for (let p = 1; p <= phrases; p++) {
      const [sentence, glossary] = SENTENCES[(c + p) % SENTENCES.length];
      rows.push([`${p}. ${sentence}`, glossary, `${pad(p)}.mp3`].map(tsvField).join('\t'));
      zip.addFile(clip, `${folder}/${pad(p)}.mp3`, { compress: false });
    }
    zip.addBuffer(Buffer.from(rows.join('\n')), `${folder}/phrases.tsv`);
  }
  zip.end();
  await finished(zip.outputStream.pipe(createWriteStream(path)));
}

async function answer(res, what) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text.slice(0, 2000)}`);
  return JSON.parse(text);
}

/** Stages the zip (the preview) and commits it: answers the new book's code and the two steps' times. */
export async function importBook(base, auth, zipPath) {
  const form = new FormData();
  form.set('zip', await openAsBlob(zipPath), 'book.zip');
  let started = performance.now();
  const preview = (
    await answer(
      await fetch(`${base}/api/v1/admin/book/import`, { method: 'POST', headers: auth, body: form }),
      'book import preview',
    )
  ).data;
  const previewMs = performance.now() - started;
  if (preview.errors.length)
    throw new Error(`book import problems: ${preview.errors.slice(0, 5).join('; ')}`);
  started = performance.now();
  const commit = await answer(
    await fetch(`${base}/api/v1/admin/import/${preview.import_id}/commit`, { method: 'POST', headers: auth }),
    'book import commit',
  );
  return { code: commit.data.book_code, previewMs, commitMs: performance.now() - started };
}
