// Issue 25's "Measured": the EPUB of a 300-phrase book and of a 30-chapter, 6,000-phrase book, the M4B of
// the large one and its subtitles, against the built server, with its RSS read every 50 ms. Each timing is
// set beside a route that does the same I/O without the format's work, in the same run: the book export
// (the same clips streamed in a zip) for the EPUB, the chapter API (the same phrases as JSON) for the
// subtitles, ffmpeg alone encoding the same length of audio for the M4B. The section is written by
// scripts/bench/formats-markdown.mjs.
//
// `BENCH_ONLY=formats node scripts/bench.mjs` runs it alone on the demo catalogue and writes the section into
// docs/benchmarks.md; `BENCH_FORMATS_COLD=sample` (below) suits a loaded machine; `BENCH_FORMATS_CHAPTERS`,
// `BENCH_FORMATS_PHRASES`, `BENCH_FORMATS_SMALL` and `BENCH_CLIP_SECONDS` shrink the books for a quick try
// (printed, not written); `BENCH_FORMATS_JSON=<file>` keeps the raw figures.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { adminHeaders } from './import-timing.mjs';
import { decodedUs, importBook, makeClip, writeBookZip } from './formats-books.mjs';
import {
  audiobookRun,
  encodeBaseline,
  epubRuns,
  fixed,
  ONE_CHAPTER,
  progress,
  subtitlesPass,
} from './formats-runs.mjs';

/** The large book; `BENCH_FORMATS_CHAPTERS` and `BENCH_FORMATS_PHRASES` shrink it for a quick try. */
export const BIG_CHAPTERS = Number(process.env.BENCH_FORMATS_CHAPTERS ?? 30);
export const BIG_PHRASES = Number(process.env.BENCH_FORMATS_PHRASES ?? 200);
export const SMALL_PHRASES = Number(process.env.BENCH_FORMATS_SMALL ?? 300);
/** Every clip is this long (1 s: 6,300 clips make 1.75 hours of audio and a 100 MB EPUB). */
const CLIP_SECONDS = Number(process.env.BENCH_CLIP_SECONDS ?? 1);
/** The encoding baseline runs on this fraction of the book's length (encoding time grows linearly). */
const BASELINE_PART = 6;
/**
 * `BENCH_FORMATS_COLD=sample`, for a machine too loaded to decode 6,000 clips three times over: the runs
 * that decode every clip of the large book (its first EPUB, its subtitles with no length kept, its M4B)
 * are measured on fewer clips and scaled to 6,000 (each clip costs one ffmpeg run), and the large book's
 * lengths are kept beforehand with the very figure the server measured for the same clip.
 */
export const SAMPLED = process.env.BENCH_FORMATS_COLD === 'sample';
/** In that mode, the M4B's book: as many chapters as the large one, fewer phrases in each. */
export const M4B_SAMPLE_PHRASES = 10;

/**
 * Deletes the kept clip lengths (the server is stopped): the next request decodes every clip again, as the
 * first download of a book does. Answers how many were kept.
 */
const forgetLengths = (storage) => () => {
  const db = new Database(join(storage, 'lingonovel.sqlite'));
  try {
    return db.prepare('DELETE FROM audio_measures').run().changes;
  } finally {
    db.close();
  }
};

/**
 * Keeps every clip length of a book (the server is stopped) with the figure the server measured for the
 * same clip bytes (every clip here is the same tone). Answers that figure.
 */
const keepLengths = (storage, code) => () => {
  const db = new Database(join(storage, 'lingonovel.sqlite'));
  try {
    const measured = db.prepare('SELECT DISTINCT decoded_us AS us FROM audio_measures').all();
    if (measured.length !== 1)
      throw new Error(`expected one measured length for identical clips, found ${measured.length}`);
    db.prepare(
      `INSERT INTO audio_measures (audio_key, decoded_us)
       SELECT 'media:' || p.audio_path, ? FROM phrases p JOIN chapters c ON c.id = p.chapter_id
       JOIN books b ON b.id = c.book_id WHERE b.book_code = ?
       AND 'media:' || p.audio_path NOT IN (SELECT audio_key FROM audio_measures)`,
    ).run(measured[0].us, code);
    return Number(measured[0].us);
  } finally {
    db.close();
  }
};

const range = (n) => Array.from({ length: n }, (_, i) => i + 1);

/**
 * The whole section's figures. `restart(between)` stops the server, runs `between` while it is stopped and
 * starts it again, answering the new process id.
 */
export async function measureFormats({ base, storage, pid, restart }) {
  const work = mkdtempSync(join(tmpdir(), 'lingonovel-bench-formats-'));
  const failures = [];
  try {
    const clip = makeClip(work, CLIP_SECONDS);
    const clipUs = decodedUs(clip);
    const small = {
      code: 'bench-formats-300',
      title: 'Bench: one chapter of 300 phrases',
      chapters: [SMALL_PHRASES],
    };
    const big = {
      code: 'bench-formats-6000',
      title: `Bench: ${BIG_CHAPTERS} chapters of ${BIG_PHRASES} phrases`,
      chapters: Array(BIG_CHAPTERS).fill(BIG_PHRASES),
    };
    const m4bBook = SAMPLED
      ? {
          code: 'bench-formats-m4b',
          title: `Bench: ${BIG_CHAPTERS} chapters of ${M4B_SAMPLE_PHRASES} phrases`,
          chapters: Array(BIG_CHAPTERS).fill(M4B_SAMPLE_PHRASES),
        }
      : big;
    console.log(`  generating and importing the books (${CLIP_SECONDS} s clips)…`);
    const auth = await adminHeaders(base, storage);
    const imports = {};
    for (const book of new Set([small, big, m4bBook])) {
      const zip = join(work, `${book.code}.zip`);
      await writeBookZip(zip, book, clip);
      book.zipBytes = statSync(zip).size;
      const done = await importBook(base, auth, zip);
      book.code = done.code;
      imports[book.code] = done;
      rmSync(zip);
      console.log(`    ${book.code}: preview ${fixed(done.previewMs)} ms, commit ${fixed(done.commitMs)} ms`);
    }
    const ctx = () => ({ base, auth, pid, work, failures, clipUs });

    // The EPUB first: its RSS is the one figure with a target. The subtitles' "kept" pass then uses the
    // lengths the EPUB kept; their other pass runs last, after the lengths are forgotten again.
    console.log('  EPUB: the export, then the EPUB with no length kept, then kept…');
    let keptBefore = 0;
    pid = await restart(() => {
      keptBefore = forgetLengths(storage)();
    });
    const epubSmall = await epubRuns(ctx(), small.code);
    let serverUs = null;
    if (SAMPLED)
      pid = await restart(() => {
        serverUs = keepLengths(storage, big.code)();
      });
    const epubBig = await epubRuns(ctx(), big.code, { cold: !SAMPLED });
    for (const [name, runs] of [
      [small.code, epubSmall],
      [big.code, epubBig],
    ])
      console.log(
        `    ${name}: ${progress(runs.exported)} (export); ${runs.first ? progress(runs.first) : '-'}; ${progress(runs.second)}`,
      );
    console.log('  subtitles, every length kept…');
    const subtitlesWarm = await subtitlesPass(ctx(), big.code, range(BIG_CHAPTERS), BIG_PHRASES, 'kept');
    console.log(`    ${fixed(subtitlesWarm.vttMs)} ms in all (chapter API ${fixed(subtitlesWarm.apiMs)} ms)`);

    console.log(`  M4B build of ${m4bBook.code}…`);
    const audiobook = await audiobookRun(ctx(), m4bBook.code);
    const m4bPhrases = m4bBook.chapters.reduce((sum, n) => sum + n, 0);
    const audioSeconds = (m4bPhrases * clipUs) / 1e6;
    console.log(
      `    ${fixed(audiobook.build.result.ms)} ms, ${audiobook.polls} polls, RSS +${fixed(audiobook.build.growth / 2 ** 20, 1)} MB, ffmpeg ${fixed(audiobook.build.childPeak / 2 ** 20, 1)} MB, ${JSON.stringify(audiobook.file)}`,
    );
    const part = audioSeconds > 1200 ? BASELINE_PART : 1;
    console.log(`  ffmpeg alone encoding ${fixed(audioSeconds / part)} s of audio…`);
    const baselineMs = encodeBaseline(work, audioSeconds / part, audiobook.file) * part;

    console.log('  subtitles, no length kept…');
    pid = await restart(forgetLengths(storage));
    const subtitlesCold = await subtitlesPass(
      ctx(),
      big.code,
      SAMPLED ? [ONE_CHAPTER] : range(BIG_CHAPTERS),
      BIG_PHRASES,
      'not kept',
    );
    console.log(
      `    ${fixed(subtitlesCold.vttMs)} ms in all; chapter ${ONE_CHAPTER}: ${fixed(subtitlesCold.one.vttMs)} ms`,
    );
    return {
      sampled: SAMPLED,
      clip: { seconds: CLIP_SECONDS, us: clipUs, serverUs, bytes: statSync(clip).size },
      small,
      big,
      m4bBook: { ...m4bBook, phrases: m4bPhrases },
      imports,
      keptBefore,
      subtitles: { cold: subtitlesCold, warm: subtitlesWarm },
      epub: { small: epubSmall, big: epubBig },
      audiobook: { ...audiobook, audioSeconds, baselineMs, baselinePart: part },
      failures,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
