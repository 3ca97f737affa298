import { execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';

/** What the long-recording import answers (503) when the server has no ffmpeg; the page shows it as is. */
export const FFMPEG_MISSING_MESSAGE =
  'Splitting a recording needs ffmpeg. Install it with: sudo apt-get install -y ffmpeg';

export type FfmpegFailure = 'missing' | 'timeout' | 'failed';

/** ffmpeg could not run (`missing`), ran too long (`timeout`) or exited with an error (`failed`). */
export class FfmpegError extends Error {
  constructor(
    readonly kind: FfmpegFailure,
    message: string,
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * The binary to run: FFMPEG_PATH when set, else `ffmpeg` on PATH. It takes the environment as an argument,
 * as loadConfig does, so that platform/config.ts can own FFMPEG_PATH once the import feature is wired in.
 */
export function ffmpegPath(env: Env = process.env): string {
  return env.FFMPEG_PATH?.trim() || 'ffmpeg';
}

/**
 * A first start on a cold disk loads ffmpeg's two hundred libraries, and a loaded machine has taken
 * seconds for it: a short limit would report a working ffmpeg as missing.
 */
const DETECT_TIMEOUT_MS = 30_000;
/** How long "no ffmpeg" stands before the next request looks again (an administrator may install it). */
const ABSENCE_KEPT_MS = 60_000;

interface Probe {
  answer: Promise<string | null>;
  /** Until when callers take `answer` as it is (Date.now()): forever once found, while it runs too. */
  keptUntil: number;
}
const probes = new Map<string, Probe>();

/**
 * The first line of `ffmpeg -version` ("ffmpeg version 5.1.6-0+deb12u1 …"), or null when there is no
 * working ffmpeg. Asked at boot and by the requests that need it; callers at the same time share one run.
 * A version found is kept for the process's life. No ffmpeg (not found, an error, another program) is kept
 * for a minute, so that one installed later is found without a restart. A start that ran out of time, or
 * could not fork, is not kept: it says nothing about the next one.
 */
export function ffmpegVersion(
  bin: string = ffmpegPath(),
  timeoutMs: number = DETECT_TIMEOUT_MS,
): Promise<string | null> {
  const kept = probes.get(bin);
  if (kept && Date.now() < kept.keptUntil) return kept.answer;
  const probe: Probe = { answer: Promise.resolve(null), keptUntil: Infinity };
  probe.answer = new Promise((done) => {
    const settle = (version: string | null, keepMs: number) => {
      probe.keptUntil = version ? Infinity : Date.now() + keepMs;
      done(version);
    };
    try {
      execFile(
        bin,
        ['-version'],
        { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 20, windowsHide: true },
        (error, stdout) => {
          const first = String(stdout).split('\n', 1)[0].trim();
          if (!error && first.startsWith('ffmpeg version')) settle(first, 0);
          else settle(null, error?.killed ? 0 : ABSENCE_KEPT_MS);
        },
      );
    } catch {
      // Node throws some spawn errors (ENOMEM under memory pressure) instead of passing them on.
      settle(null, 0);
    }
  });
  probes.set(bin, probe);
  return probe.answer;
}

export async function ffmpegAvailable(bin: string = ffmpegPath()): Promise<boolean> {
  return (await ffmpegVersion(bin)) !== null;
}

export interface RunOptions {
  /** Killed (SIGKILL) after this long; a 10-minute recording takes seconds, an hour well under a minute. */
  timeoutMs?: number;
  /** Only the last this many characters of stderr are kept, for the error message and the return value. */
  maxStderrChars?: number;
  /** Every complete stderr line, as it comes: lets a caller read long logs without keeping them. */
  onStderrLine?: (line: string) => void;
  /**
   * Every chunk ffmpeg writes to stdout (an output of `pipe:1`), as it comes; without it stdout is ignored.
   * Read at once: a slow reader would make ffmpeg wait, never grow memory.
   */
  onStdout?: (chunk: Buffer) => void;
  /** ffmpeg's stdin (closed without it): another process's output, as `pipe:0` reads it. */
  stdin?: Readable;
  /** Kills ffmpeg when aborted; the run then rejects with the signal's reason. */
  signal?: AbortSignal;
  bin?: string;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_MAX_STDERR = 64 * 1024;

/**
 * Runs ffmpeg with an argument array (no shell, so nothing in a file name is interpreted), stdin closed,
 * stdout ignored unless `onStdout` reads it. Resolves with the tail of stderr; rejects with an FfmpegError.
 */
export function runFfmpeg(args: readonly string[], options: RunOptions = {}): Promise<string> {
  const bin = options.bin ?? ffmpegPath();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxChars = options.maxStderrChars ?? DEFAULT_MAX_STDERR;
  return new Promise((resolvePromise, reject) => {
    const signal = options.signal;
    if (signal?.aborted) return reject(abortReason(signal));
    const child = spawn(bin, ['-hide_banner', ...(options.stdin ? [] : ['-nostdin']), ...args], {
      stdio: [options.stdin ?? 'ignore', options.onStdout ? 'pipe' : 'ignore', 'pipe'],
      windowsHide: true,
    });
    // A reader that throws stops ffmpeg, and the run fails with the reader's error.
    let readerError: unknown = null;
    const onStdout = options.onStdout;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (readerError !== null || !onStdout) return;
      try {
        onStdout(chunk);
      } catch (error) {
        readerError = error;
        child.kill('SIGKILL');
      }
    });
    let tail = '';
    let partial = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const kill = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', kill);

    // Piped above, whichever stdout is.
    const stderr = child.stderr!;
    stderr.setEncoding('utf8');
    stderr.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-maxChars);
      if (!options.onStderrLine) return;
      const lines = (partial + chunk).split(/\r\n|\r|\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) options.onStderrLine(line);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
      const kind = error.code === 'ENOENT' || error.code === 'EACCES' ? 'missing' : 'failed';
      reject(new FfmpegError(kind, kind === 'missing' ? FFMPEG_MISSING_MESSAGE : error.message));
    });
    child.on('close', (code, exitSignal) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
      if (partial && options.onStderrLine) options.onStderrLine(partial);
      if (signal?.aborted) {
        reject(abortReason(signal));
      } else if (readerError !== null) {
        reject(readerError instanceof Error ? readerError : new Error('The reader of ffmpeg output failed'));
      } else if (timedOut) {
        reject(new FfmpegError('timeout', `ffmpeg took longer than ${timeoutMs / 1000} s`, tail));
      } else if (code !== 0) {
        reject(
          new FfmpegError(
            'failed',
            `ffmpeg failed (${exitSignal ?? `exit ${code}`}): ${lastLine(tail)}`,
            tail,
          ),
        );
      } else {
        resolvePromise(tail);
      }
    });
  });
}

/** What an aborted run rejects with: the signal's reason when it is an Error. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new Error(typeof reason === 'string' ? reason : 'ffmpeg was stopped');
}

function lastLine(text: string): string {
  const lines = text.trim().split(/\r\n|\r|\n/);
  return lines[lines.length - 1] ?? '';
}

/**
 * An input for ffmpeg. The `file:` protocol keeps a name such as `concat:…` or `http:…` from ever being
 * read as another protocol; the path is made absolute first.
 */
export function ffmpegInput(file: string): string {
  return `file:${resolve(file)}`;
}

/** ffmpeg's arguments to decode a file's first audio stream to mono 16-bit PCM at `rate` on stdout. */
export function decodeToPipeArgs(file: string, rate: number): string[] {
  return ['-nostats', '-v', 'error', '-i', ffmpegInput(file), '-map', '0:a:0', '-ac', '1'].concat([
    '-ar',
    String(rate),
    '-c:a',
    'pcm_s16le',
    '-f',
    's16le',
    'pipe:1',
  ]);
}

/**
 * Reads `-progress` output: ffmpeg's own count of where decoding ended, in whole milliseconds. With
 * `-f null` this is the decoded length of the audio, which is exact, unlike a container's declared length.
 */
export function parseProgressDurationMs(stderr: string): number | null {
  let last: number | null = null;
  for (const match of stderr.matchAll(/^out_time_us=(\d+)\s*$/gm)) last = Number(match[1]);
  return last === null ? null : Math.round(last / 1000);
}

/**
 * The length of a file's first audio stream, in ms, by decoding it. ffprobe's `format=duration` would be
 * faster but, for an MP3 with a LAME header, it counts the encoder's delay and padding: 76 ms too long on a
 * 30-second test file, a large share of the 100 ms the split is held to. Decoding a 10-minute MP3 takes
 * well under a second.
 */
export async function probeDurationMs(file: string, options: RunOptions = {}): Promise<number> {
  let progress = '';
  await runFfmpeg(
    [
      '-nostats',
      '-v',
      'error',
      '-i',
      ffmpegInput(file),
      '-map',
      '0:a:0',
      '-f',
      'null',
      '-',
      '-progress',
      'pipe:2',
    ],
    { ...options, onStderrLine: (line) => (progress = line.startsWith('out_time_us=') ? line : progress) },
  );
  const durationMs = parseProgressDurationMs(progress);
  if (durationMs === null) throw new FfmpegError('failed', 'ffmpeg reported no audio to decode');
  return durationMs;
}
