import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FFMPEG_MISSING_MESSAGE,
  ffmpegAvailable,
  ffmpegPath,
  ffmpegVersion,
  parseProgressDurationMs,
  runFfmpeg,
} from './ffmpeg';
import {
  chooseCuts,
  parseSilenceDetect,
  segmentsFromCuts,
  validateBoundaries,
  type Span,
} from './silence-split';

// What ffmpeg 5.1 writes for `-v info -af silencedetect … -progress pipe:2`, trimmed.
const STDERR = `Input #0, mp3, from 'file:/tmp/chapter.mp3':
  Metadata:
    title           : [silencedetect @ 0x1] silence_start: 1.0
  Duration: 00:00:29.78, start: 0.050113, bitrate: 93 kb/s
  Stream #0:0: Audio: mp3, 22050 Hz, mono, fltp, 96 kb/s
Output #0, null, to 'pipe:':
[silencedetect @ 0x5565b3143e00] silence_start: 0
[silencedetect @ 0x5565b3143e00] silence_end: 0.3 | silence_duration: 0.3
[silencedetect @ 0x5565b3143e00] silence_start: 4.0512
[silencedetect @ 0x5565b3143e00] silence_end: 4.45211 | silence_duration: 0.400907
out_time_us=15000000
progress=continue
[silencedetect @ 0x5565b3143e00] silence_start: 13.8075
[silencedetect @ 0x5565b3143e00] silence_end: 15.0078 | silence_duration: 1.20032
[silencedetect @ 0x5565b3143e00] silence_start: 29.204
out_time_us=29704036
progress=end
`;

const s = (startMs: number, endMs: number): Span => ({ startMs, endMs });

describe(parseSilenceDetect.name, () => {
  it('reads each silence in whole ms, ignoring lines that only look like its own', () => {
    expect(parseSilenceDetect(STDERR, 29_704)).toEqual([
      s(0, 300),
      s(4051, 4452),
      s(13_808, 15_008),
      s(29_204, 29_704),
    ]);
  });

  it('ends a silence still open at the end of the file at the end of the file', () => {
    expect(parseSilenceDetect('[silencedetect @ 0xa] silence_start: 9.5\n', 10_000)).toEqual([
      s(9500, 10_000),
    ]);
  });

  it('starts at 0 a silence whose start came before the file (negative, or not reported)', () => {
    const log = [
      '[silencedetect @ 0xa] silence_start: -0.0123',
      '[silencedetect @ 0xa] silence_end: 0.25 | silence_duration: 0.2623',
      '[silencedetect @ 0xa] silence_end: 0.75 | silence_duration: 0.1',
    ].join('\r\n');
    expect(parseSilenceDetect(log, 5000)).toEqual([s(0, 250), s(0, 750)]);
  });

  it('reads times that ffmpeg writes in exponent form', () => {
    const log = '[silencedetect @ 0xa] silence_start: 5e-05\n[silencedetect @ 0xa] silence_end: 0.2 | x';
    expect(parseSilenceDetect(log, 1000)).toEqual([s(0, 200)]);
  });

  it('finds nothing in a log without silences', () => {
    expect(parseSilenceDetect('size=N/A time=00:00:10.00\n', 10_000)).toEqual([]);
  });
});

describe(parseProgressDurationMs.name, () => {
  it('takes the last position that ffmpeg reports', () => {
    expect(parseProgressDurationMs(STDERR)).toBe(29_704);
  });

  it('is null when ffmpeg reported no progress', () => {
    expect(parseProgressDurationMs('Output file is empty')).toBeNull();
  });
});

describe(chooseCuts.name, () => {
  const duration = 30_000;

  it('cuts in the middle of the longest pauses, in the order of the recording', () => {
    const silences = [s(2000, 2400), s(5000, 5160), s(8000, 9000), s(12_000, 12_200), s(15_000, 15_700)];
    expect(chooseCuts(silences, 4, duration)).toEqual({
      cutsMs: [2200, 8500, 15_350],
      found: 5,
      needed: 3,
      error: null,
    });
  });

  it('prefers a long pause to the short pauses inside a phrase, wherever they are', () => {
    const silences = [s(1000, 1150), s(1300, 1460), s(6000, 6450), s(7000, 7170)];
    expect(chooseCuts(silences, 2, duration).cutsMs).toEqual([6225]);
  });

  it('breaks a tie between equal pauses by taking the earlier one', () => {
    expect(chooseCuts([s(9000, 9300), s(3000, 3300)], 2, duration).cutsMs).toEqual([3150]);
  });

  it('skips the leading and trailing silence of the file, however long', () => {
    const silences = [s(0, 3000), s(60, 2000), s(10_000, 10_400), s(27_000, 29_950), s(28_000, duration)];
    expect(chooseCuts(silences, 2, duration)).toMatchObject({ cutsMs: [10_200], found: 1, error: null });
  });

  it('returns every usable pause and says how many it found when there are too few', () => {
    const silences = [s(0, 500), s(4000, 4600), s(9000, 9300), s(29_500, duration)];
    expect(chooseCuts(silences, 5, duration)).toEqual({
      cutsMs: [4300, 9150],
      found: 2,
      needed: 4,
      error: 'Found only 2 pauses for 5 phrases',
    });
  });

  it('needs no cut for one phrase', () => {
    expect(chooseCuts([s(4000, 4600)], 1, duration)).toEqual({
      cutsMs: [],
      found: 1,
      needed: 0,
      error: null,
    });
  });

  it('refuses a phrase count that is not a whole number of at least 1', () => {
    expect(() => chooseCuts([], 0, duration)).toThrow(RangeError);
    expect(() => chooseCuts([], 2.5, duration)).toThrow(RangeError);
  });
});

describe(segmentsFromCuts.name, () => {
  it('makes N segments from N−1 cuts, covering the whole recording', () => {
    expect(segmentsFromCuts([2200, 8500], 10_000)).toEqual([s(0, 2200), s(2200, 8500), s(8500, 10_000)]);
    expect(segmentsFromCuts([], 10_000)).toEqual([s(0, 10_000)]);
  });
});

describe(validateBoundaries.name, () => {
  it('accepts increasing boundaries inside the recording and rounds them to whole ms', () => {
    expect(validateBoundaries([1000.4, 2049.6, 9950], 10_000, 4)).toEqual({
      ok: true,
      cutsMs: [1000, 2050, 9950],
    });
  });

  it('accepts segments of exactly 50 ms', () => {
    expect(validateBoundaries([50, 100], 150)).toEqual({ ok: true, cutsMs: [50, 100] });
  });

  it('wants one boundary fewer than the phrases', () => {
    expect(validateBoundaries([1000], 10_000, 3)).toEqual({
      ok: false,
      errors: [{ boundary: null, message: '3 phrases need 2 boundaries, got 1' }],
    });
  });

  it('names each boundary that is out of order, outside the recording or not a number', () => {
    expect(validateBoundaries([3000, 2000, 0, 10_000, Number.NaN, '4000'], 10_000)).toEqual({
      ok: false,
      errors: [
        { boundary: 2, message: 'Boundary 2 (2000 ms) must come after boundary 1' },
        { boundary: 3, message: 'Boundary 3 (0 ms) is outside the recording (0–10000 ms)' },
        { boundary: 4, message: 'Boundary 4 (10000 ms) is outside the recording (0–10000 ms)' },
        { boundary: 5, message: 'Boundary 5 is not a time in milliseconds' },
        { boundary: 6, message: 'Boundary 6 is not a time in milliseconds' },
      ],
    });
  });

  it('refuses a boundary equal to the one before it', () => {
    expect(validateBoundaries([3000, 3000], 10_000)).toMatchObject({
      ok: false,
      errors: [{ boundary: 2, message: 'Boundary 2 (3000 ms) must come after boundary 1' }],
    });
  });

  it('refuses a segment shorter than 50 ms, the first and the last included', () => {
    expect(validateBoundaries([49, 1000], 10_000)).toMatchObject({
      errors: [{ boundary: 1, message: 'Segment 1 would be shorter than 50 ms' }],
    });
    expect(validateBoundaries([1000, 1030], 10_000)).toMatchObject({
      errors: [{ boundary: 2, message: 'Segment 2 would be shorter than 50 ms' }],
    });
    expect(validateBoundaries([1000, 9960], 10_000)).toMatchObject({
      errors: [{ boundary: 2, message: 'Segment 3 would be shorter than 50 ms' }],
    });
  });
});

describe('ffmpeg', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lingonovel-ffmpeg-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** A stand-in for ffmpeg: a shell script, so these tests need no ffmpeg. */
  async function fake(name: string, script: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, `#!/bin/sh\n${script}\n`);
    await chmod(path, 0o755);
    return path;
  }

  it('runs FFMPEG_PATH when it is set, else ffmpeg from PATH', () => {
    expect(ffmpegPath({ FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg' })).toBe('/opt/ffmpeg/bin/ffmpeg');
    expect(ffmpegPath({ FFMPEG_PATH: ' ' })).toBe('ffmpeg');
    expect(ffmpegPath({})).toBe('ffmpeg');
  });

  it('is unavailable when the binary does not exist or is not ffmpeg', async () => {
    await expect(ffmpegAvailable(join(dir, 'missing'))).resolves.toBe(false);
    await expect(ffmpegAvailable(await fake('other', 'echo "something else"'))).resolves.toBe(false);
  });

  it('reads the version line once, and remembers it', async () => {
    const counter = join(dir, 'calls');
    const bin = await fake(
      'ffmpeg-ok',
      `echo x >> ${counter}; echo "ffmpeg version 5.1.6-0+deb12u1 Copyright"`,
    );
    await expect(ffmpegVersion(bin)).resolves.toBe('ffmpeg version 5.1.6-0+deb12u1 Copyright');
    await expect(ffmpegAvailable(bin)).resolves.toBe(true);
    expect(await readFile(counter, 'utf8')).toBe('x\n');
  });

  it('looks again after a start too slow to answer', async () => {
    // Answers only once the marker exists; before, it sleeps (exec: the kill at the limit ends the sleep).
    const marker = join(dir, 'warm');
    const bin = await fake(
      'ffmpeg-cold',
      `if [ -e ${marker} ]; then echo "ffmpeg version 5.1.6-0+deb12u1"; else exec sleep 30; fi`,
    );
    await expect(ffmpegVersion(bin, 300)).resolves.toBeNull();
    await writeFile(marker, '');
    await expect(ffmpegVersion(bin, 20_000)).resolves.toBe('ffmpeg version 5.1.6-0+deb12u1');
  });

  it('shares one run among callers at the same time', async () => {
    const counter = join(dir, 'shared-calls');
    const bin = await fake('ffmpeg-shared', `echo x >> ${counter}; echo "ffmpeg version 5.1.6"`);
    const answers = await Promise.all([ffmpegVersion(bin), ffmpegVersion(bin), ffmpegAvailable(bin)]);
    expect(answers).toEqual(['ffmpeg version 5.1.6', 'ffmpeg version 5.1.6', true]);
    expect(await readFile(counter, 'utf8')).toBe('x\n');
  });

  it('keeps "no ffmpeg" for a minute, then finds one installed since', async () => {
    const later = join(dir, 'installed-later');
    await expect(ffmpegAvailable(later)).resolves.toBe(false);
    await writeFile(later, '#!/bin/sh\necho "ffmpeg version 5.1.6-0+deb12u1"\n');
    await chmod(later, 0o755);
    await expect(ffmpegAvailable(later)).resolves.toBe(false);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    try {
      await expect(ffmpegAvailable(later)).resolves.toBe(true);
    } finally {
      clock.mockRestore();
    }
  });

  it('answers with the install command when there is no ffmpeg to run', async () => {
    await expect(runFfmpeg(['-version'], { bin: join(dir, 'missing') })).rejects.toMatchObject({
      kind: 'missing',
      message: FFMPEG_MISSING_MESSAGE,
    });
  });

  it('passes arguments without a shell and returns the end of stderr', async () => {
    const bin = await fake('echoes', 'for a in "$@"; do echo "$a" >&2; done');
    const lines: string[] = [];
    const stderr = await runFfmpeg(['-i', 'a b; rm -rf x', '$HOME'], {
      bin,
      maxStderrChars: 20,
      onStderrLine: (line) => lines.push(line),
    });
    expect(lines).toEqual(['-hide_banner', '-nostdin', '-i', 'a b; rm -rf x', '$HOME']);
    expect(stderr).toBe('a b; rm -rf x\n$HOME\n'.slice(-20));
  });

  it('reports the last line of stderr when ffmpeg fails', async () => {
    const bin = await fake(
      'fails',
      'echo "Input #0" >&2; echo "file:/x: No such file or directory" >&2; exit 1',
    );
    await expect(runFfmpeg([], { bin })).rejects.toMatchObject({
      kind: 'failed',
      message: 'ffmpeg failed (exit 1): file:/x: No such file or directory',
    });
  });

  it('kills ffmpeg when it runs past its time', async () => {
    const bin = await fake('hangs', 'exec sleep 30');
    const started = Date.now();
    await expect(runFfmpeg([], { bin, timeoutMs: 200 })).rejects.toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(20_000); // not the 30 s of its sleep
  });

  it('kills ffmpeg when its signal aborts, and rejects with the reason; an aborted signal runs nothing', async () => {
    const counter = join(dir, 'started');
    const bin = await fake('hangs-counted', `echo x >> ${counter}; exec sleep 30`);
    const stop = new AbortController();
    const started = Date.now();
    const run = runFfmpeg([], { bin, signal: stop.signal });
    let settled = false;
    run.catch(() => undefined).finally(() => (settled = true));
    // Aborted once the fake has started (a loaded machine may take a while to start it).
    void (async () => {
      while (!settled && !(await readFile(counter, 'utf8').catch(() => '')))
        await new Promise((r) => setTimeout(r, 20));
      stop.abort(new Error('the lease was lost'));
    })();
    await expect(run).rejects.toThrow('the lease was lost');
    expect(Date.now() - started).toBeLessThan(20_000); // not the 30 s of its sleep
    await expect(runFfmpeg([], { bin, signal: stop.signal })).rejects.toThrow('the lease was lost');
    expect(await readFile(counter, 'utf8')).toBe('x\n');
  });
});
