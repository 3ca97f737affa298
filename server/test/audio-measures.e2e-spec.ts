import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { sql } from '../platform/database/sql';
import { AudioMeasure } from '../publishing/formats/audio-measure.entity';
import { AudioMeasures, decodedLengthUs, UndecodableAudioError } from '../publishing/formats/audio-measures';
import { EpubClips, transcodeKey } from '../publishing/formats/epub-clips';
import { decodeToPcm, PCM_RATE } from '../publishing/formats/pcm';
import * as ffmpeg from '../publishing/imports/ffmpeg';
import { FFMPEG_MISSING_MESSAGE, FfmpegError } from '../publishing/imports/ffmpeg';
import { DERIVED_STORE, MEDIA_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import { startServer, type TestServer } from './harness';
import { failWithoutFfmpeg } from './ffmpeg-present';

/** An odd sample count at 44.1 kHz: 1,500,022.7 µs, so an exact count is told from a rounded one. */
const SAMPLES = 66_151;
const EXACT_US = Math.round((SAMPLES * 1_000_000) / 44_100);
const ENCODERS: Record<string, string[]> = {
  wav: ['-c:a', 'pcm_s16le'],
  mp3: ['-c:a', 'libmp3lame', '-b:a', '64k'],
  m4a: ['-c:a', 'aac', '-b:a', '64k'],
  ogg: ['-c:a', 'libvorbis'],
  aac: ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts'],
};
/**
 * How far each decoded length may be from the samples put in: none for WAV, MP3 (LAME's header tells the
 * decoder its delay and padding) and Vorbis; AAC decodes whole 1,024-sample frames, and raw ADTS also keeps
 * the encoder's priming frame. The decoded figure is what a player plays: that is the one we keep.
 */
const TOLERANCE_US: Record<string, number> = { wav: 0, mp3: 0, ogg: 0, m4a: 24_000, aac: 48_000 };
type Kind = keyof typeof ENCODERS;

function containerSeconds(file: string): number {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    file,
  ]);
  return Number(String(out).trim());
}

/** Collects what is written, slowly: each write completes on a later turn, with a tiny buffer. */
class SlowSink extends Writable {
  readonly chunks: Buffer[] = [];
  /** The most ever waiting in the stream's buffer: bounded by one pipe read when the decoder pauses. */
  maxBuffered = 0;
  constructor() {
    super({ highWaterMark: 1024 });
  }
  override _write(chunk: Buffer, _encoding: string, done: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    this.maxBuffered = Math.max(this.maxBuffered, this.writableLength);
    setTimeout(done, 2);
  }
  get bytes(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }
}

/**
 * Exact clip lengths, EPUB clips and PCM decoding with the real ffmpeg, on the test's database and store
 * (SQLite and a folder, or PostgreSQL and S3). ffmpeg is required, as for the other import tests.
 */
describe('Exact clip lengths, EPUB clips and PCM with ffmpeg', () => {
  let server: TestServer;
  let dir: string;
  let measures: AudioMeasures;
  let clips: EpubClips;
  let media: MediaStore;
  let derived: MediaStore;
  let db: DataSource;
  const files: Record<string, string> = {};
  const keys = {} as Record<Kind, string>;

  /** A fresh media key holding a copy of a local file (put moves its file in). */
  async function stored(file: string, ext: string): Promise<string> {
    const key = `lines/${randomBytes(8).toString('hex')}.${ext}`;
    const copy = join(dir, `copy-${randomBytes(4).toString('hex')}`);
    copyFileSync(file, copy);
    await media.put(key, copy);
    return key;
  }

  beforeAll(async () => {
    failWithoutFfmpeg();
    dir = mkdtempSync(join(tmpdir(), 'lingonovel-measures-'));
    const source = ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=2'];
    for (const kind of Object.keys(ENCODERS)) {
      files[kind] = join(dir, `clip.${kind}`);
      const args = ['-v', 'error', '-y', ...source, '-af', `atrim=end_sample=${SAMPLES}`];
      execFileSync('ffmpeg', [...args, ...ENCODERS[kind], files[kind]]);
    }
    // 30 s at 44.1 kHz: far more than a pipe and the sink's buffer, so back-pressure must pause ffmpeg.
    files.long = join(dir, 'long.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=30', files.long]);
    // 96 kHz 24-bit stereo: WAVE_FORMAT_EXTENSIBLE (more than 2 channels' worth of fmt) and a LIST chunk.
    files.hires = join(dir, 'hires.wav');
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=sample_rate=96000:duration=2'],
      ...['-af', 'atrim=end_sample=96001', '-ac', '2', '-c:a', 'pcm_s24le'],
      ...['-write_channel_mask', '1', '-metadata', 'title=Hoch', files.hires],
    ]);
    files.empty = join(dir, 'empty.wav');
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=1', '-af', 'atrim=end_sample=0'],
      files.empty,
    ]);
    files.alac = join(dir, 'alac.m4a');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=duration=1',
      '-c:a',
      'alac',
      files.alac,
    ]);
    server = await startServer();
    measures = server.app.get(AudioMeasures);
    clips = server.app.get(EpubClips);
    media = server.app.get<symbol, MediaStore>(MEDIA_STORE);
    derived = server.app.get<symbol, MediaStore>(DERIVED_STORE);
    db = server.app.get(DataSource);
    for (const kind of Object.keys(ENCODERS)) keys[kind] = await stored(files[kind], kind);
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('decodes each format to its length in µs: exact for WAV, within a frame for AAC', async () => {
    for (const kind of Object.keys(ENCODERS)) {
      const us = await decodedLengthUs(files[kind]);
      expect({ kind, off: Math.abs(us - EXACT_US) <= TOLERANCE_US[kind] }).toEqual({ kind, off: true });
    }
    expect(await decodedLengthUs(files.wav)).toBe(EXACT_US);
    // The MP3's container figure counts the encoder's delay and padding; decoding does not.
    expect(Math.round(containerSeconds(files.mp3) * 1e6) - EXACT_US).toBeGreaterThan(20_000);
    expect(await decodedLengthUs(files.mp3)).toBe(EXACT_US);
  });

  it('keeps lengths: a second call measures nothing, even once the file is gone', async () => {
    const all = Object.values(keys);
    const first = await measures.lengths([...all, keys.wav], 'media');
    expect(first.size).toBe(all.length);
    expect(first.get(keys.wav)).toBe(EXACT_US);
    const rows = await sql<{ audio_key: string }[]>(
      db,
      'SELECT audio_key FROM audio_measures WHERE audio_key = ? OR audio_key = ?',
      [`media:${keys.wav}`, `media:${keys.mp3}`],
    );
    expect(rows.map((row) => row.audio_key).sort()).toEqual(
      [`media:${keys.mp3}`, `media:${keys.wav}`].sort(),
    );

    const gone = await stored(files.wav, 'wav');
    expect((await measures.lengths([gone])).get(gone)).toBe(EXACT_US);
    await media.delete([gone]);
    expect((await measures.lengths([gone])).get(gone)).toBe(EXACT_US);
    expect(await measures.lengths(all)).toEqual(first);
  });

  it('reads thousands of kept lengths in chunks, and two racing measures of one file agree', async () => {
    const hires = await stored(files.hires, 'wav');
    // 96,001 samples at 96 kHz, whatever the fmt chunk's form and the chunks before `data`.
    expect((await measures.lengths([hires])).get(hires)).toBe(Math.round((96_001 * 1e6) / 96_000));

    const many = Array.from({ length: 1_200 }, (_, i) => `lines/kept-${i}.mp3`);
    const repository = db.getRepository(AudioMeasure);
    for (let i = 0; i < many.length; i += 100) {
      await repository.insert(
        many.slice(i, i + 100).map((key, j) => ({ audioKey: `media:${key}`, decodedUs: i + j })),
      );
    }
    const lengths = await measures.lengths(many);
    expect(lengths.size).toBe(1_200);
    expect(lengths.get('lines/kept-1199.mp3')).toBe(1199);
    // Same key in the other store is another file.
    await expect(measures.lengths(['lines/kept-1.mp3'], 'derived')).rejects.toThrow('No stored object');

    // Two requests at once share one ffmpeg, and both succeed with one row.
    const fresh = await stored(files.ogg, 'ogg');
    const runs = jest.spyOn(ffmpeg, 'runFfmpeg');
    const [a, b] = await Promise.all([measures.lengths([fresh]), measures.lengths([fresh])]);
    const decodes = runs.mock.calls.filter(([args]) => args.includes('wav')).length;
    runs.mockRestore();
    expect([a.get(fresh), b.get(fresh), decodes]).toEqual([EXACT_US, EXACT_US, 1]);
    // Another instance kept the same length first: keeping it again is no error (ON CONFLICT DO NOTHING).
    const raced = await stored(files.wav, 'wav');
    await repository.insert({ audioKey: `media:${raced}`, decodedUs: 7 });
    const row = (key: string) =>
      sql<{ decoded_us: number | string }[]>(
        db,
        'SELECT decoded_us FROM audio_measures WHERE audio_key = ?',
        [key],
      );
    expect(await row(`media:${fresh}`)).toHaveLength(1);
    await expect(
      (measures as unknown as { keep(key: string, us: number): Promise<void> }).keep(
        `media:${raced}`,
        EXACT_US,
      ),
    ).resolves.toBeUndefined();
    expect((await row(`media:${raced}`)).map((r) => Number(r.decoded_us))).toEqual([7]);
  });

  it('puts MP3 and M4A in an EPUB as stored, and WAV, Ogg and raw AAC as an AAC transcode, measured', async () => {
    const paths = [keys.mp3, keys.m4a, keys.wav, keys.ogg, keys.aac];
    // Two requests at once: each clip is transcoded once, the second request waits for the first's.
    const runs = jest.spyOn(ffmpeg, 'runFfmpeg');
    const [result, again] = await Promise.all([clips.forEpub(paths), clips.forEpub(paths)]);
    const transcodes = runs.mock.calls.filter(([args]) => args.includes('+faststart'));
    runs.mockRestore();
    expect(transcodes).toHaveLength(3);
    expect(again).toEqual(result);
    expect(result.get(keys.mp3)).toEqual({
      store: 'media',
      key: keys.mp3,
      ext: 'mp3',
      mediaType: 'audio/mpeg',
      decodedUs: EXACT_US,
    });
    expect(result.get(keys.m4a)).toMatchObject({ store: 'media', key: keys.m4a, ext: 'm4a' });
    for (const kind of ['wav', 'ogg', 'aac'] as const) {
      const clip = result.get(keys[kind])!;
      expect(clip).toMatchObject({
        store: 'derived',
        key: transcodeKey(keys[kind]),
        ext: 'm4a',
        mediaType: 'audio/mp4',
      });
      const copy = await derived.localCopy(clip.key);
      try {
        expect(
          execFileSync('ffprobe', [
            '-v',
            'error',
            '-show_entries',
            'stream=codec_name',
            '-of',
            'csv=p=0',
            copy.path,
          ])
            .toString()
            .trim(),
        ).toBe('aac');
        // The EPUB's span is the stored clip's decoded length, the one measure everywhere: the transcode
        // only pads its end to a whole AAC frame (1,024 samples at most), which the span leaves out.
        const sourceUs = await decodedLengthUs(files[kind]);
        expect(clip.decodedUs).toBe(sourceUs);
        const padded = await decodedLengthUs(copy.path);
        expect(padded).toBeGreaterThanOrEqual(sourceUs);
        expect(padded - sourceUs).toBeLessThanOrEqual(Math.ceil((1024 * 1e6) / 44_100));
      } finally {
        await copy.release();
      }
    }

    // An M4A holding ALAC is not AAC: it is transcoded like a WAV.
    const alac = await stored(files.alac, 'm4a');
    expect((await clips.forEpub([alac])).get(alac)).toMatchObject({
      store: 'derived',
      key: transcodeKey(alac),
    });

    // A transcode remade under its key changes no time: the span is the source's.
    await derived.delete([transcodeKey(keys.ogg)]);
    expect((await clips.forEpub([keys.ogg])).get(keys.ogg)!.decodedUs).toBe(result.get(keys.ogg)!.decodedUs);

    // Made once: a later call finds the transcode and leaves it as it is.
    const before = await derived.head(transcodeKey(keys.wav));
    await clips.forEpub([keys.wav]);
    expect(await derived.head(transcodeKey(keys.wav))).toEqual(before);

    const streamed: Buffer[] = [];
    for await (const chunk of await clips.read(result.get(keys.wav)!)) streamed.push(chunk as Buffer);
    expect(Buffer.concat(streamed).length).toBe(before!.size);
  });

  it('decodes clips to PCM one after another into one slow stream, every byte, never ending it', async () => {
    const sink = new SlowSink();
    const listeners = sink.listenerCount('drain');
    const long = await stored(files.long, 'wav');
    const wav = await decodeToPcm(media, keys.wav, sink);
    const thirty = await decodeToPcm(media, long, sink);
    expect([wav, thirty]).toEqual([SAMPLES, 30 * 44_100]);
    expect(PCM_RATE).toBe(44_100);
    await new Promise((done) => sink.write(Buffer.alloc(0), done));
    expect(sink.bytes).toBe(2 * (SAMPLES + 30 * 44_100));
    expect(sink.writableEnded).toBe(false);
    // 2.6 MB went through, never more than one pipe read (64 KiB) over the sink's high-water mark waiting.
    expect(sink.maxBuffered).toBeLessThanOrEqual(64 * 1024 + 1024);
    expect(sink.listenerCount('drain')).toBe(listeners);
  });

  it('stops the decoder when the encoder fails mid-clip while ffmpeg is paused, or is gone already', async () => {
    const long = await stored(files.long, 'wav');
    let writes = 0;
    const failing = new Writable({
      highWaterMark: 1024,
      write: (_chunk, _encoding, done) => {
        // Slow writes: ffmpeg's stdout is paused by back-pressure when the third one fails.
        if (++writes === 3) setTimeout(() => done(new Error('encoder gone')), 300);
        else setTimeout(done, 50);
      },
    });
    failing.on('error', () => undefined);
    const within = async <T>(promise: Promise<T>) => {
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error('decodeToPcm hung')), 10_000);
      });
      try {
        return await Promise.race([promise, hung]);
      } finally {
        clearTimeout(timer);
      }
    };
    await expect(within(decodeToPcm(media, long, failing))).rejects.toThrow('encoder gone');

    const destroyed = new SlowSink();
    destroyed.destroy();
    await expect(within(decodeToPcm(media, long, destroyed))).rejects.toThrow('closed');
    const ended = new SlowSink();
    ended.end();
    await expect(within(decodeToPcm(media, long, ended))).rejects.toThrow('closed');
  });

  it('answers a clear error for a file that is not audio, and FfmpegError missing without ffmpeg', async () => {
    const text = join(dir, 'not-audio.txt');
    writeFileSync(text, 'Guten Morgen, this is not audio at all.\n'.repeat(50));
    const bogusMp3 = await stored(text, 'mp3');
    const bogusWav = await stored(text, 'wav');
    await expect(decodedLengthUs(text)).rejects.toBeInstanceOf(UndecodableAudioError);
    await expect(measures.lengths([bogusMp3])).rejects.toThrow(
      `This audio could not be decoded: ${bogusMp3}`,
    );
    await expect(decodeToPcm(media, bogusMp3, new SlowSink())).rejects.toBeInstanceOf(UndecodableAudioError);
    await expect(clips.forEpub([bogusWav])).rejects.toBeInstanceOf(UndecodableAudioError);
    expect(await derived.head(transcodeKey(bogusWav))).toBeNull();
    const kept = await sql<unknown[]>(db, 'SELECT audio_key FROM audio_measures WHERE audio_key = ?', [
      `media:${bogusMp3}`,
    ]);
    expect(kept).toEqual([]);

    // A clip of no samples is no audio (it would be a 0 µs cue).
    const empty = await stored(files.empty, 'wav');
    await expect(measures.lengths([empty])).rejects.toThrow(
      `This audio could not be decoded: ${empty} (no audio decoded)`,
    );
    // What ffmpeg says names the key, never a path on the server.
    const errors = await Promise.all([
      measures.lengths([bogusMp3]).catch((error: Error) => error.message),
      decodeToPcm(media, bogusMp3, new SlowSink()).catch((error: Error) => error.message),
      clips.forEpub([bogusWav]).catch((error: Error) => error.message),
    ]);
    for (const message of errors) expect(message).not.toMatch(/file:|\/tmp\/|lingonovel-/);
    expect(errors[1]).toContain(bogusMp3);

    const saved = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = '/nonexistent/ffmpeg';
    try {
      const missing = expect.objectContaining({ kind: 'missing', message: FFMPEG_MISSING_MESSAGE });
      await expect(decodedLengthUs(files.wav)).rejects.toEqual(missing);
      await expect(decodeToPcm(media, keys.wav, new SlowSink())).rejects.toEqual(missing);
      await expect(measures.lengths([await stored(files.wav, 'wav')])).rejects.toBeInstanceOf(FfmpegError);
    } finally {
      if (saved === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = saved;
    }
    // The server is still up.
    expect((await fetch(`${server.baseUrl}/api/v1/health`)).status).toBeLessThan(500);
  });
});
