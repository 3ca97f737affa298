// What the formats bench reads off the machine and the wire: the server's resident memory and its ffmpeg
// processes' (Linux /proc), one download timed to its first and last byte, an EPUB's entries, an M4B's
// chapters. scripts/bench/formats-timing.mjs drives them.
import { execFileSync } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync, readlinkSync } from 'node:fs';
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
export function descendants(pid) {
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

/** A process's command name (`ffmpeg`, `espeak-ng`); '?' once it has exited. */
function commandName(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

/** The program a process runs; null once it has exited. */
function program(pid) {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/**
 * Waits until the server has run no child process for `forMs` (its background work, such as measuring
 * clips' lengths with ffmpeg, done), at most `limitMs`: how long it waited, and how many child processes
 * it saw meanwhile.
 */
export async function quiet(pid, { forMs = 8_000, limitMs = 600_000 } = {}) {
  const started = performance.now();
  const seen = new Set();
  let quietSince = started;
  while (performance.now() - started < limitMs) {
    const children = descendants(pid);
    for (const child of children) seen.add(child);
    const now = performance.now();
    if (children.length) quietSince = now;
    else if (now - quietSince >= forMs) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  return { ms: Math.max(0, quietSince - started), processes: seen.size };
}

/**
 * Runs `work` while reading the server's RSS and its child processes' every `everyMs` (50 ms unless told):
 * the growth is the peak minus the figure just before. `childPeak` is the children's peak sum,
 * `totalGrowth` the peak of the server and its children together (read at the same moment) minus the
 * same sum just before, `peakAtMs` when that peak was read (from the start of `work`), and `childPeaks`
 * each child command's own peak (the largest one process of that name reached). A child still running the
 * server's own program is one forked to run ffmpeg or eSpeak NG and not yet turned into it: its pages are
 * the server's, shared, and it is not counted (the server starts no Node process of its own).
 */
export async function sampled(pid, work, everyMs = SAMPLE_MS) {
  const server = program(pid);
  const read = () => {
    const own = rss(pid);
    let children = 0;
    const each = [];
    for (const child of new Set(descendants(pid))) {
      if (program(child) === server) continue;
      const bytes = rss(child);
      children += bytes;
      each.push([commandName(child), bytes]);
    }
    return { own, children, each };
  };
  const first = read();
  const before = first.own;
  const totalBefore = first.own + first.children;
  let peak = before;
  let childPeak = 0;
  let totalPeak = totalBefore;
  let peakAtMs = 0;
  const childPeaks = {};
  let samples = 0;
  const started = performance.now();
  const sample = () => {
    const now = read();
    peak = Math.max(peak, now.own);
    childPeak = Math.max(childPeak, now.children);
    for (const [name, bytes] of now.each) childPeaks[name] = Math.max(childPeaks[name] ?? 0, bytes);
    if (now.own + now.children > totalPeak) {
      totalPeak = now.own + now.children;
      peakAtMs = performance.now() - started;
    }
    samples++;
  };
  const timer = setInterval(sample, everyMs);
  try {
    const result = await work();
    sample();
    return {
      result,
      before,
      growth: Math.max(0, peak - before),
      childPeak,
      samples,
      totalBefore,
      totalGrowth: Math.max(0, totalPeak - totalBefore),
      peakAtMs,
      childPeaks,
    };
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
