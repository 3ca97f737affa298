// The formats bench's requests (scripts/bench/formats-timing.mjs plans them): a book's subtitles chapter by
// chapter beside the chapter API, its EPUB beside the book export, its M4B asked for until it is built, and
// ffmpeg alone encoding as much audio. `ctx` carries the server's address, the admin's header, its process
// id (for the RSS), a work folder and the list of failures.
import { execFileSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { download, epubEntries, probeAudiobook, sampled, vttCues } from './formats-probes.mjs';

/** The single chapter of the subtitles' rows: a chapter past the free one, as a member reads it. */
export const ONE_CHAPTER = 2;
/** How often the M4B is asked for while it is built. */
const POLL_MS = 500;
/** Past this, the M4B build is given up on (a broken build would otherwise hang the bench). */
const BUILD_LIMIT_MS = 30 * 60_000;

/** The subtitles of every chapter, one after another, and the chapter API beside each. */
export async function subtitlesPass({ base, auth, clipUs, failures }, code, chapters, phrases, label) {
  const rows = [];
  for (const n of chapters) {
    const api = await download(`${base}/api/v1/guest/book/${code}/chapter/${n}`, auth);
    const vtt = await download(`${base}/api/v1/downloads/${code}/chapter/${n}/subtitles.vtt`, auth, {
      keep: true,
    });
    const cues = vttCues(vtt.text);
    const expectedMs = (phrases * clipUs) / 1000;
    if (api.status !== 200) failures.push(`chapter API ${n} (${label}): ${api.status} ${api.text}`);
    if (vtt.status !== 200)
      failures.push(`subtitles ${n} (${label}): ${vtt.status} ${vtt.text.slice(0, 300)}`);
    else if (cues.cues !== phrases)
      failures.push(`subtitles ${n} (${label}): ${cues.cues} cues for ${phrases} phrases`);
    rows.push({
      n,
      apiMs: api.totalMs,
      vttMs: vtt.totalMs,
      bytes: vtt.bytes,
      driftMs: cues.endMs - expectedMs,
    });
  }
  const sum = (key) => rows.reduce((total, row) => total + row[key], 0);
  return {
    rows,
    one: rows.find((row) => row.n === ONE_CHAPTER) ?? rows[0],
    vttMs: sum('vttMs'),
    apiMs: sum('apiMs'),
    bytes: sum('bytes'),
    maxDriftMs: Math.max(...rows.map((row) => Math.abs(row.driftMs))),
  };
}

export const fixed = (n, digits = 0) => Number(n).toFixed(digits);
/** A timed download as a progress line: the whole section is written only at the end. */
export const progress = (run) =>
  `${run.result.status} ${fixed(run.result.bytes / 2 ** 20, 1)} MB, first byte ${fixed(run.result.ttfbMs)} ms, total ${fixed(run.result.totalMs)} ms, RSS +${fixed(run.growth / 2 ** 20, 1)} MB`;

/** A GET of a whole file with the server's RSS sampled; the answer is saved to `file`. */
const timed = (pid, url, auth, file) => sampled(pid, () => download(url, auth, { file }));

/** The export beside the EPUB, first with no length kept, then again with every length kept. */
export async function epubRuns({ base, auth, pid, work, failures }, code, { cold = true } = {}) {
  const exported = await timed(
    pid,
    `${base}/api/v1/admin/book/${code}/export`,
    auth,
    join(work, 'export.zip'),
  );
  const first = cold
    ? await timed(pid, `${base}/api/v1/downloads/${code}/epub`, auth, join(work, 'first.epub'))
    : null;
  const second = await timed(pid, `${base}/api/v1/downloads/${code}/epub`, auth, join(work, 'second.epub'));
  for (const [name, run] of [
    ['export', exported],
    ['EPUB (first)', first],
    ['EPUB (second)', second],
  ])
    if (run && run.result.status !== 200)
      failures.push(`${name} of ${code}: ${run.result.status} ${run.result.text.slice(0, 300)}`);
  const entries = second.result.status === 200 ? await epubEntries(join(work, 'second.epub')) : null;
  rmSync(join(work, 'export.zip'), { force: true });
  rmSync(join(work, 'first.epub'), { force: true });
  rmSync(join(work, 'second.epub'), { force: true });
  return { exported, first, second, entries, contentType: second.result.headers['content-type'] };
}

/**
 * Asks for the M4B until it is ready (202 meanwhile), with the server's RSS and its ffmpeg processes'
 * sampled; then downloads it and reads it with ffprobe.
 */
export async function audiobookRun({ base, auth, pid, work, failures }, code) {
  const url = `${base}/api/v1/downloads/${code}/audiobook`;
  let polls = 0;
  let firstStatus = null;
  let retryAfter = null;
  const build = await sampled(pid, async () => {
    const started = performance.now();
    for (;;) {
      const answer = await download(url, auth, { headOnly: true });
      firstStatus ??= answer.status;
      if (answer.status !== 202) return { ...answer, ms: performance.now() - started };
      retryAfter ??= answer.headers['retry-after'] ?? null;
      polls++;
      if (performance.now() - started > BUILD_LIMIT_MS) return { ...answer, ms: performance.now() - started };
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  });
  if (build.result.status !== 200) {
    failures.push(`M4B of ${code}: ${build.result.status} after ${polls} answers 202`);
    return { build, polls, firstStatus, retryAfter, fetched: null, file: null };
  }
  const path = join(work, 'book.m4b');
  const fetched = await timed(pid, url, auth, path);
  const file = fetched.result.status === 200 ? { bytes: statSync(path).size, ...probeAudiobook(path) } : null;
  if (!file) failures.push(`M4B download of ${code}: ${fetched.result.status}`);
  rmSync(path, { force: true });
  return { build, polls, firstStatus, retryAfter, fetched, file };
}

/**
 * ffmpeg alone encoding as much tone as the book holds to AAC in an .m4b, with the built file's codec
 * settings: what the build would cost with no clip to decode and no server around it.
 */
export function encodeBaseline(work, seconds, file) {
  const out = join(work, 'baseline.m4b');
  const started = performance.now();
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=${file?.sampleRate || 44_100}:duration=${seconds}`,
    '-ac',
    String(file?.channels || 1),
    '-c:a',
    'aac',
    '-b:a',
    String(Math.round((file?.bitRate || 64_000) / 1000) * 1000),
    '-f',
    'mp4',
    out,
  ]);
  const ms = performance.now() - started;
  rmSync(out, { force: true });
  return ms;
}
