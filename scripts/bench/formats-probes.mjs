// What the formats bench reads off the machine and the wire: the server's resident memory and its ffmpeg
// processes' (Linux /proc), one download timed to its first and last byte, an EPUB's entries, an M4B's
// chapters. scripts/bench/formats-timing.mjs drives them.
import { execFileSync } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import yauzl from 'yauzl';

/** How often the server's RSS is read while a request runs. */
export const SAMPLE_MS = 50;

/** A process's resident memory in bytes; 0 once it has exited. */
export function rss(pid) {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  } catch {
    return 0;
  }
}

/** Every process under `pid` (ffmpeg, spawned by the server), through /proc/<pid>/task/<tid>/children. */
function descendants(pid) {
  const found = [];
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const tid of tasks) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean)) found.push(child, ...descendants(child));
  }
  return found;
}

/**
 * Runs `work` while reading the server's RSS (and the summed RSS of its child processes) every 50 ms:
 * the growth is the peak minus the figure just before.
 */
export async function sampled(pid, work) {
  const before = rss(pid);
  let peak = before;
  let childPeak = 0;
  let samples = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rss(pid));
    const children = new Set(descendants(pid));
    childPeak = Math.max(
      childPeak,
      [...children].reduce((sum, child) => sum + rss(child), 0),
    );
    samples++;
  }, SAMPLE_MS);
  try {
    const result = await work();
    peak = Math.max(peak, rss(pid));
    return { result, before, growth: Math.max(0, peak - before), childPeak, samples };
  } finally {
    clearInterval(timer);
  }
}

/**
 * One GET, timed from the request to the answer's headers, its first body byte and its last. A 200's body
 * goes to `file` (when given) with back-pressure, else is counted and dropped; other answers keep their
 * text for the error message. `keep` keeps a 200's text too (subtitles). `headOnly` closes the connection
 * once the headers are in (an M4B poll that found the file ready).
 */
export function download(url, headers, { file, keep = false, headOnly = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    request(url, { headers }, (res) => {
      const headersAt = performance.now();
      const base = { status: res.statusCode, headers: res.headers, headersMs: headersAt - started };
      if (headOnly && res.statusCode !== 202) {
        res.destroy();
        resolve({ ...base, ttfbMs: null, totalMs: headersAt - started, bytes: 0, text: '' });
        return;
      }
      let first = null;
      let bytes = 0;
      const chunks = [];
      const ok = res.statusCode === 200 || res.statusCode === 206;
      res.on('data', (chunk) => {
        first ??= performance.now();
        bytes += chunk.length;
        if (!ok || keep) chunks.push(chunk);
      });
      const done = () => {
        const end = performance.now();
        resolve({
          ...base,
          ttfbMs: (first ?? end) - started,
          totalMs: end - started,
          bytes,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      };
      res.on('error', reject);
      if (file && ok) res.pipe(createWriteStream(file)).on('finish', done).on('error', reject);
      else res.on('end', done);
    })
      .on('error', reject)
      .end();
  });
}

/** An EPUB's entries: whether `mimetype` comes first and stored, and how many clips, SMILs and XHTMLs. */
export function epubEntries(path) {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error) return reject(error);
      const found = { entries: 0, audio: 0, smil: 0, xhtml: 0, mimetypeFirst: false, last: '' };
      zip.on('entry', (entry) => {
        if (found.entries === 0)
          found.mimetypeFirst = entry.fileName === 'mimetype' && entry.compressionMethod === 0;
        found.entries++;
        found.last = entry.fileName;
        if (/\.(mp3|m4a|mp4|aac)$/i.test(entry.fileName)) found.audio++;
        else if (/\.smil$/i.test(entry.fileName)) found.smil++;
        else if (/\.xhtml$/i.test(entry.fileName)) found.xhtml++;
        zip.readEntry();
      });
      zip.on('end', () => resolve(found));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** An M4B's length (container), codec, bit rate and chapter starts, in seconds, as ffprobe reads them. */
export function probeAudiobook(path) {
  const info = JSON.parse(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_format',
      '-show_streams',
      '-show_chapters',
      '-of',
      'json',
      path,
    ]).toString('utf8'),
  );
  const audio = info.streams.find((stream) => stream.codec_type === 'audio');
  return {
    seconds: Number(info.format.duration),
    codec: audio?.codec_name ?? '?',
    bitRate: Number(audio?.bit_rate ?? info.format.bit_rate ?? 0),
    sampleRate: Number(audio?.sample_rate ?? 0),
    channels: Number(audio?.channels ?? 0),
    chapterStarts: info.chapters.map((chapter) => Number(chapter.start_time)),
    cover: info.streams.some((stream) => stream.codec_type === 'video'),
  };
}

/** The end of a WebVTT's last cue, in ms, and its number of cues. */
export function vttCues(text) {
  const times = [...text.matchAll(/--> (\d+):(\d\d):(\d\d)\.(\d{3})/g)];
  const last = times.at(-1);
  const endMs = last
    ? ((Number(last[1]) * 60 + Number(last[2])) * 60 + Number(last[3])) * 1000 + Number(last[4])
    : 0;
  return { cues: times.length, endMs };
}
