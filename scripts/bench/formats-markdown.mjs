// The formats section of docs/benchmarks.md (issue 25's "Measured"), from measureFormats' figures
// (scripts/bench/formats-timing.mjs); `BENCH_ONLY=formats` writes it in place, keeping the other sections.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { BIG_CHAPTERS, BIG_PHRASES, SMALL_PHRASES } from './formats-timing.mjs';
import { SAMPLE_MS } from './formats-probes.mjs';

export const FORMATS_HEADING = '## Formats out: EPUB 3, M4B and subtitles (issue 25)';
const RSS_LIMIT = 100 * 2 ** 20;

const fixed = (n, digits = 0) => Number(n).toFixed(digits);
const mb = (bytes) => `${fixed(bytes / 2 ** 20, 1)} MB`;
const count = (n) => n.toLocaleString('en-US');
const verdict = (ok) => (ok ? 'met' : '**missed**');
/** Milliseconds under 10 s as ms, else seconds. */
const time = (ms) =>
  ms < 10_000
    ? `${fixed(ms, ms < 100 ? 1 : 0)} ms`
    : ms < 300_000
      ? `${fixed(ms / 1000, 1)} s`
      : `${fixed(ms / 60_000, 1)} min`;
const clock = (seconds) => {
  const s = Math.round(seconds * 1000) / 1000;
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${(s % 60).toFixed(3).padStart(6, '0')}`;
};

/** The commit the run measured, and whether the tree held more than it. */
export function revision(root) {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root }).toString('utf8').trim();
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'an unknown commit';
  }
}

/** A clip's decoding, in ms, as a run with no length kept cost beyond the same run with every length kept. */
const perClip = (coldMs, warmMs, clips) => Math.max(0, coldMs - warmMs) / clips;

function epubRows(label, runs, estimate) {
  const row = (what, run, to) =>
    `| ${label} | ${what} | ${mb(run.result.bytes)} | ${time(run.result.ttfbMs)} | ${time(run.result.totalMs)} | ${to ? `${fixed(run.result.totalMs / to.result.totalMs, 2)}×` : '1.00'} | ${mb(run.growth)} | ≤ 100 MB | ${to ? verdict(run.growth <= RSS_LIMIT && run.result.status === 200) : ''} |`;
  return [
    row(
      'the book export (`GET admin/book/{code}/export`): the same clips, stored in a zip',
      runs.exported,
      null,
    ),
    runs.first
      ? row('EPUB, no length kept (every clip decoded)', runs.first, runs.exported)
      : `| ${label} | EPUB, no length kept: not measured in this run; estimated as the kept run plus ${count(estimate.clips)} × ${fixed(estimate.perClipMs, 1)} ms, a clip's decoding in the ${SMALL_PHRASES}-phrase book's runs | | | ≈ ${time(runs.second.result.totalMs + estimate.clips * estimate.perClipMs)} | ≈ ${fixed((runs.second.result.totalMs + estimate.clips * estimate.perClipMs) / runs.exported.result.totalMs, 1)}× | | | |`,
    row('EPUB, every length kept', runs.second, runs.exported),
  ];
}

const entriesLine = (label, entries, phrases, chapters) =>
  entries
    ? `${label}: ${count(entries.entries)} entries, ${count(entries.audio)} clips for ${count(phrases)} phrases, ${entries.smil} SMIL and ${entries.xhtml} XHTML files for ${chapters} chapter${chapters === 1 ? '' : 's'}, \`mimetype\` ${entries.mimetypeFirst ? 'first and stored' : '**not first and stored**'}, \`${entries.last}\` last.`
    : `${label}: not downloaded.`;

function audiobookRows(a, clips, sampled) {
  const build = a.build;
  const file = a.file;
  const total = BIG_CHAPTERS * BIG_PHRASES;
  const rows = [
    `| build: the first \`GET\` to the answer 200 (asked every 0.5 s: ${a.polls} answers 202${a.retryAfter ? `, \`Retry-After: ${a.retryAfter}\`` : ''}) | ${time(build.result.ms)}; ${fixed(a.audioSeconds / (build.result.ms / 1000), 1)}× real time | informational | |`,
    ...(sampled
      ? [
          `| scaled to the ${count(total)}-clip book (× ${fixed(total / clips, 1)}: one decoding ffmpeg per clip, and as much more audio) | ≈ ${time((build.result.ms * total) / clips)} | informational | |`,
        ]
      : []),
    `| ffmpeg alone encoding tone with the file's codec settings (no clip to decode, no server): ${clock(a.audioSeconds / a.baselinePart)} timed, × ${a.baselinePart} for the book's length | ${time(a.baselineMs)}; the build took ${fixed(build.result.ms / a.baselineMs, 2)}× that | informational | |`,
    `| the server's RSS growth during the build (peak, ${build.samples} samples) | ${mb(build.growth)} | ≤ 100 MB (the EPUB's bound) | ${verdict(build.growth <= RSS_LIMIT)} |`,
    `| its ffmpeg processes' RSS (peak, summed) | ${mb(build.childPeak)} | informational | |`,
  ];
  if (!file) return [...rows, '| the file | not downloaded | | **missed** |'];
  const expected = Array.from({ length: BIG_CHAPTERS }, (_, k) => (k * a.audioSeconds) / BIG_CHAPTERS);
  const drift =
    file.chapterStarts.length === BIG_CHAPTERS
      ? Math.max(...file.chapterStarts.map((start, k) => Math.abs(start - expected[k]) * 1000))
      : Infinity;
  return [
    ...rows,
    `| the file: size, length (the sum of the decoded clips: ${clock(a.audioSeconds)}), chapter marks | ${mb(file.bytes)}, ${clock(file.seconds)}, ${file.codec} ${fixed(file.bitRate / 1000)} kbit/s ${file.channels === 1 ? 'mono' : `${file.channels} channels`} ${fixed(file.sampleRate / 1000, 1)} kHz${file.cover ? ', cover attached' : ', **no cover**'}; ${file.chapterStarts.length} marks, starts within ${fixed(drift, 1)} ms of the decoded sums | ${BIG_CHAPTERS} marks within 50 ms | ${verdict(drift <= 50)} |`,
    `| downloading the built file (time to first byte ${time(a.fetched.result.ttfbMs)}) | ${time(a.fetched.result.totalMs)}, RSS growth ${mb(a.fetched.growth)} | ≤ 100 MB | ${verdict(a.fetched.growth <= RSS_LIMIT)} |`,
  ];
}

function subtitleRows(s, sampled) {
  const one = (run, what) =>
    `| chapter ${run.one.n} (${BIG_PHRASES} phrases) | ${what} | ${time(run.one.vttMs)} | ${time(run.one.apiMs)} | ${fixed(run.one.vttMs / run.one.apiMs, 2)}× |`;
  const all = (run, what) =>
    `| all ${BIG_CHAPTERS} chapters one after another (${count(BIG_CHAPTERS * BIG_PHRASES)} phrases, ${mb(run.bytes)}) | ${what} | ${time(run.vttMs)} | ${time(run.apiMs)} | ${fixed(run.vttMs / run.apiMs, 2)}× |`;
  return [
    one(s.cold, `none kept (${BIG_PHRASES} clips decoded)`),
    one(s.warm, 'kept'),
    sampled
      ? `| all ${BIG_CHAPTERS} chapters | none kept: not measured in this run; estimated as the kept run plus ${count(BIG_CHAPTERS * BIG_PHRASES)} × ${fixed(perClip(s.cold.one.vttMs, s.warm.one.vttMs, BIG_PHRASES), 1)} ms, a clip's decoding in chapter ${s.cold.one.n}'s runs | ≈ ${time(s.warm.vttMs + BIG_CHAPTERS * BIG_PHRASES * perClip(s.cold.one.vttMs, s.warm.one.vttMs, BIG_PHRASES))} | | |`
      : all(s.cold, `none kept (${count(BIG_CHAPTERS * BIG_PHRASES)} clips decoded)`),
    all(s.warm, 'kept'),
  ];
}

/** The section's lines. `how` names the command that ran it; `load` the load average before and after. */
export function formatsMarkdown(f, { root, how, load, at = revision(root) }) {
  const big = f.imports[f.big.code];
  const small = f.epub.small;
  const estimate = {
    clips: BIG_CHAPTERS * BIG_PHRASES,
    perClipMs: small.first
      ? perClip(small.first.result.totalMs, small.second.result.totalMs, SMALL_PHRASES)
      : 0,
  };
  const sampledNote = f.sampled
    ? [
        `This run used \`BENCH_FORMATS_COLD=sample\` (the machine was too loaded to decode ${count(BIG_CHAPTERS * BIG_PHRASES)} clips three times over within the session, at one ffmpeg run per clip): the large book's lengths were kept beforehand (written into \`audio_measures\` with the server stopped) with the figure the server itself had measured for the same clip bytes (${fixed(f.clip.serverUs / 1000, 3)} ms), so its EPUB and subtitles with every length kept are measured at full size, while the runs that decode every clip of it are measured on fewer clips and scaled, as marked in each row. The M4B was built for a third book, \`${f.m4bBook.code}\`: ${BIG_CHAPTERS} chapters of ${f.m4bBook.chapters[0]} phrases (${count(f.m4bBook.phrases)} clips).`,
      ]
    : [];
  return [
    FORMATS_HEADING,
    '',
    runLine(how, at, load),
    `The built server on SQLite, with generated books put in through the admin book import (the ${count(BIG_CHAPTERS * BIG_PHRASES)}-phrase one: a ${mb(f.big.zipBytes)} zip, preview ${time(big.previewMs)}, commit ${time(big.commitMs)}): \`${f.small.code}\`, one chapter of ${SMALL_PHRASES} phrases, and \`${f.big.code}\`, ${BIG_CHAPTERS} chapters of ${BIG_PHRASES} phrases, ${count(BIG_CHAPTERS * BIG_PHRASES)} in all. Every phrase has its own stored clip, each the same ${f.clip.seconds} s tone, a 128 kbit/s MP3 of ${fixed(f.clip.bytes / 1024, 1)} KB (${fixed(f.clip.us / 1000, 1)} ms decoded). Requests as the administrator (bearer token: the whole book), one at a time over loopback; the server's RSS is read from \`/proc/<pid>/status\` every ${SAMPLE_MS} ms, and its growth is the peak during the request minus the figure just before it. "None kept": the rows of \`audio_measures\` deleted and the server restarted just before (${count(f.keptBefore)} were kept after the import), so the request decodes every clip with ffmpeg (docs/formats.md, "Exact lengths").`,
    ...sampledNote,
    '',
    '### EPUB 3 with Media Overlays (`GET /api/v1/downloads/{code}/epub`)',
    '',
    'The ratio is the total time to the book export of the same book in the same run: the server streaming the same clips in a zip with no format work.',
    '',
    '| book | download | size | time to first byte | total time | ratio | server RSS growth | target | |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...epubRows(`${SMALL_PHRASES} phrases, 1 chapter`, f.epub.small),
    ...epubRows(
      `${count(BIG_CHAPTERS * BIG_PHRASES)} phrases, ${BIG_CHAPTERS} chapters`,
      f.epub.big,
      estimate,
    ),
    '',
    `The headers come with the first byte: the first chapter's clip lengths are found before the answer starts (docs/formats.md), so with no length kept the client waits ${time(small.first?.result.headersMs ?? 0)} for the ${SMALL_PHRASES}-phrase book's headers in this run, at one ffmpeg run per clip, two at a time. A reverse proxy in front of the server cuts an answer whose headers take longer than its read timeout (nginx's \`proxy_read_timeout\` is 60 s by default): on a loaded server, the first download of a book with a long first chapter can meet it.`,
    '',
    `${entriesLine(`The ${SMALL_PHRASES}-phrase EPUB`, f.epub.small.entries, SMALL_PHRASES, 1)} ${entriesLine(`The ${count(BIG_CHAPTERS * BIG_PHRASES)}-phrase EPUB`, f.epub.big.entries, BIG_CHAPTERS * BIG_PHRASES, BIG_CHAPTERS)} \`Content-Type: ${f.epub.big.contentType ?? '?'}\`.`,
    '',
    f.sampled
      ? `### Audiobook M4B of a ${BIG_CHAPTERS}-chapter book of ${count(f.m4bBook.phrases)} phrases (\`GET /api/v1/downloads/{code}/audiobook\`)`
      : `### Audiobook M4B of the ${BIG_CHAPTERS}-chapter book (\`GET /api/v1/downloads/{code}/audiobook\`)`,
    '',
    '| measure | figure | target | |',
    '| --- | --- | --- | --- |',
    ...audiobookRows(f.audiobook, f.m4bBook.phrases, f.sampled),
    '',
    `### Subtitles (\`GET /api/v1/downloads/{code}/chapter/{n}/subtitles.vtt\`) of the ${BIG_CHAPTERS}-chapter book`,
    '',
    `The ratio is to the chapter API (\`GET /api/v1/guest/book/{code}/chapter/{n}\`, the same phrases as JSON, same token) asked just before each subtitles request. Every cue file's last cue ends within ${fixed(Math.max(f.subtitles.cold.maxDriftMs, f.subtitles.warm.maxDriftMs), 1)} ms of ${BIG_PHRASES} decoded clip lengths.`,
    '',
    '| chapters | lengths | subtitles | chapter API | ratio |',
    '| --- | --- | ---: | ---: | ---: |',
    ...subtitleRows(f.subtitles, f.sampled),
    '',
    ...(f.failures.length ? [`Failures: ${f.failures.join('; ')}.`, ''] : []),
  ];
}

/** A section's first line: how it was run, on what, and how loaded the machine was. */
export function runLine(how, at, load) {
  const date = new Date().toISOString().slice(0, 10);
  return `Run of \`${how}\` on ${date} at ${at}: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${fixed(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}, Node ${process.version}; the load average over a minute was ${fixed(load[0], 1)} at the start and ${fixed(load[1], 1)} at the end (the machine is shared: read the ratios, taken in this run, before the absolute figures).`;
}

export const writeFormatsSection = (root, lines) => writeSection(root, FORMATS_HEADING, lines);

/**
 * Puts a section (from its heading to the next level-2 heading) into docs/benchmarks.md in place of the
 * one there, or before the notes ("How to read these figures") the first time; every other section stays
 * as it is.
 */
export function writeSection(root, heading, lines) {
  const file = join(root, 'docs', 'benchmarks.md');
  const text = readFileSync(file, 'utf8');
  const section = `${lines.join('\n').trimEnd()}\n\n`;
  const start = text.indexOf(heading);
  if (start >= 0) {
    const next = text.slice(start + heading.length).search(/\n## /);
    const end = next < 0 ? text.length : start + heading.length + next + 1;
    writeFileSync(file, text.slice(0, start) + section + text.slice(end));
    return;
  }
  const notes = text.indexOf('## How to read these figures');
  const at = notes < 0 ? text.length : notes;
  writeFileSync(file, text.slice(0, at) + section + text.slice(at));
}
