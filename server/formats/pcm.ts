import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { FFMPEG_MISSING_MESSAGE, FfmpegError, ffmpegInput, ffmpegPath } from '../imports/ffmpeg';
import type { MediaStore } from '../media/store/media-store';
import { UndecodableAudioError } from './audio-measures';

/** What every clip is decoded to for an audiobook: 16-bit little-endian mono at this rate. */
export const PCM_RATE = 44_100;

const MAX_STDERR_CHARS = 4096;
const IDLE_TIMEOUT_MS = 60_000;
const BYTES_PER_SAMPLE = 2;

/**
 * Decodes a stored clip to PCM (PCM_RATE, mono, s16le) into `out`, honouring back-pressure, without
 * ending it; resolves with the number of samples written. Rejects with FfmpegError('missing') without
 * ffmpeg, FfmpegError('timeout') when ffmpeg writes nothing for a minute while `out` takes data,
 * UndecodableAudioError for a clip that is not decodable audio, or `out`'s error (or closing early).
 *
 * ffmpeg is spawned here rather than through runFfmpeg: its reader cannot pause stdout, and an encoder
 * slower than the decoder would otherwise make memory grow with the whole book.
 */
export async function decodeToPcm(store: MediaStore, key: string, out: Writable): Promise<number> {
  const copy = await store.localCopy(key);
  try {
    return await decodeFile(copy.path, key, out);
  } finally {
    await copy.release();
  }
}

function decodeFile(file: string, key: string, out: Writable): Promise<number> {
  return new Promise((resolve, reject) => {
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
    const stdout = child.stdout;

    // A decoder that writes nothing for this long while `out` takes data is stuck (a clip decodes in well
    // under a second); time spent paused by back-pressure is the encoder's, and never counts.
    let idle: NodeJS.Timeout | undefined;
    const watch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        failure ??= new FfmpegError(
          'timeout',
          `ffmpeg wrote nothing for ${IDLE_TIMEOUT_MS / 1000} s`,
          stderr,
        );
        child.kill('SIGKILL');
      }, IDLE_TIMEOUT_MS);
    };
    watch();
    const resume = () => {
      watch();
      stdout.resume();
    };
    const onOutError = (error: Error) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    // `out` outlives this clip (one encoder for the whole book): listeners are removed when it is done.
    const onOutClose = () => onOutError(new Error('The PCM output closed before the clip was decoded'));
    out.on('drain', resume);
    out.on('error', onOutError);
    out.on('close', onOutClose);
    const done = () => {
      clearTimeout(idle);
      out.off('drain', resume);
      out.off('error', onOutError);
      out.off('close', onOutClose);
    };

    stdout.on('data', (chunk: Buffer) => {
      if (failure) return;
      bytes += chunk.length;
      if (out.write(chunk)) return watch();
      clearTimeout(idle);
      stdout.pause();
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-MAX_STDERR_CHARS)));
    child.on('error', (error: NodeJS.ErrnoException) => {
      const missing = error.code === 'ENOENT' || error.code === 'EACCES';
      // 'close' may not follow a failed spawn: settle here (a second settle is a no-op).
      done();
      reject(missing ? new FfmpegError('missing', FFMPEG_MISSING_MESSAGE) : error);
    });
    child.on('close', (code, signal) => {
      done();
      if (failure) reject(failure);
      else if (code !== 0) {
        const detail =
          stderr
            .trim()
            .split(/\r\n|\r|\n/)
            .pop() ||
          (signal ?? `exit ${code}`);
        reject(new UndecodableAudioError(key, detail.slice(0, 200)));
      } else resolve(Math.floor(bytes / BYTES_PER_SAMPLE));
    });
  });
}
