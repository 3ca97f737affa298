import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { FFMPEG_MISSING_MESSAGE, FfmpegError, ffmpegInput, ffmpegPath } from '../imports/ffmpeg';
import type { MediaStore } from '../../platform/media/store/media-store';
import { hidePath, UndecodableAudioError } from './audio-measures';

/** What every clip is decoded to for an audiobook: 16-bit little-endian mono at this rate. */
export const PCM_RATE = 44_100;

const MAX_STDERR_CHARS = 4096;
const IDLE_TIMEOUT_MS = 60_000;
const BYTES_PER_SAMPLE = 2;

/**
 * Decodes a stored clip to PCM (PCM_RATE, mono, s16le) into `out`, honouring back-pressure, without
 * ending it; resolves with the number of samples written. Rejects with FfmpegError('missing') without
 * ffmpeg, FfmpegError('timeout') when ffmpeg writes nothing for a minute while `out` takes data,
 * UndecodableAudioError for a clip that is not decodable audio, or `out`'s error (or its closing, early or
 * before the call: a destroyed, ended or failed `out` is refused at once).
 *
 * ffmpeg is spawned here rather than through runFfmpeg: its reader cannot pause stdout, and an encoder
 * slower than the decoder would otherwise make memory grow with the whole book.
 */
export async function decodeToPcm(store: MediaStore, key: string, out: Writable): Promise<number> {
  const unusable = outUnusable(out);
  if (unusable) throw unusable;
  const copy = await store.localCopy(key);
  try {
    return await decodeFile(copy.path, key, out);
  } finally {
    await copy.release();
  }
}

function decodeFile(file: string, key: string, out: Writable): Promise<number> {
  return new Promise((resolve, reject) => {
    const unusable = outUnusable(out);
    if (unusable) return reject(unusable);
    const child = spawn(
      ffmpegPath(),
      [
        '-hide_banner',
        '-nostdin',
        '-v',
        'error',
        '-i',
        ffmpegInput(file),
        '-map',
        '0:a:0',
        '-ac',
        '1',
        '-ar',
        String(PCM_RATE),
        '-c:a',
        'pcm_s16le',
        '-f',
        's16le',
        'pipe:1',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true },
    );
    let bytes = 0;
    let stderr = '';
    let failure: Error | null = null;
    let settled = false;
    const stdout = child.stdout;

    // A decoder that writes nothing for this long while `out` takes data is stuck (a clip decodes in well
    // under a second); time spent paused by back-pressure is the encoder's, and never counts.
    let idle: NodeJS.Timeout | undefined;
    const watch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        stop(new FfmpegError('timeout', `ffmpeg wrote nothing for ${IDLE_TIMEOUT_MS / 1000} s`, stderr));
      }, IDLE_TIMEOUT_MS);
    };
    watch();
    const resume = () => {
      watch();
      stdout.resume();
    };
    // A paused stdout never ends, so 'close' would never come: the pipes are destroyed, and the promise
    // settles on the child's exit (see 'exit' below).
    const stop = (error: Error) => {
      failure ??= error;
      clearTimeout(idle);
      stdout.destroy();
      child.stderr.destroy();
      child.kill('SIGKILL');
    };
    // `out` outlives this clip (one encoder for the whole book): listeners are removed when it is done.
    const onOutError = (error: Error) => stop(error);
    const onOutClose = () => stop(new Error('The PCM output closed before the clip was decoded'));
    out.on('drain', resume);
    out.on('error', onOutError);
    out.on('close', onOutClose);
    const settle = (error: Error | null, samples = 0) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      out.off('drain', resume);
      out.off('error', onOutError);
      out.off('close', onOutClose);
      if (error) reject(error);
      else resolve(samples);
    };

    stdout.on('data', (chunk: Buffer) => {
      if (failure) return;
      bytes += chunk.length;
      if (out.write(chunk)) return watch();
      // A destroyed or ended `out` answers false and never drains, nor always says why.
      const gone = outUnusable(out);
      if (gone) return stop(gone);
      clearTimeout(idle);
      stdout.pause();
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-MAX_STDERR_CHARS)));
    child.on('error', (error: NodeJS.ErrnoException) => {
      const missing = error.code === 'ENOENT' || error.code === 'EACCES';
      // 'close' may not follow a failed spawn: settle here (a second settle is a no-op).
      settle(missing ? new FfmpegError('missing', FFMPEG_MISSING_MESSAGE) : error);
    });
    child.on('exit', () => {
      if (failure) settle(failure);
    });
    child.on('close', (code, signal) => {
      if (failure) settle(failure);
      else if (code !== 0) {
        const detail =
          stderr
            .trim()
            .split(/\r\n|\r|\n/)
            .pop() ||
          (signal ?? `exit ${code}`);
        settle(new UndecodableAudioError(key, hidePath(detail, file, key).slice(0, 200)));
      } else settle(null, Math.floor(bytes / BYTES_PER_SAMPLE));
    });
  });
}

/** Why `out` cannot take a clip (destroyed, ended or failed), or null when it can. */
function outUnusable(out: Writable): Error | null {
  if (out.errored) return out.errored;
  if (out.destroyed || out.writableEnded) return new Error('The PCM output is closed');
  return null;
}
