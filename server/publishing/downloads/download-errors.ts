import { ServiceUnavailableException } from '@nestjs/common';
import { RuleFailed, tryAgainIn } from '../../platform/common/api-error';
import { UndecodableAudioError } from '../formats/audio-measures';
import { FfmpegError } from '../imports/ffmpeg';
import { ObjectNotFoundError } from '../../platform/media/store/media-store';

export const FFMPEG_NEEDED =
  'This download needs ffmpeg on the server, which is not installed. Ask the administrator to install it (sudo apt-get install -y ffmpeg).';
const BUSY = 'The server is busy reading this book’s audio. Try again in a minute.';
/** How long a client waits after ffmpeg ran out of time: the work is usually lighter a minute later. */
const BUSY_RETRY_SECONDS = 60;

/**
 * What the audio tools' failures mean to a downloader: no ffmpeg is the server's (503), ffmpeg out of
 * time is the server's for now (503, come back later), a clip that is missing or not audio is the book's,
 * for its administrator to fix (422, naming it when we can). Never a 500.
 */
export function asAnswer(error: unknown): unknown {
  if (error instanceof FfmpegError && error.kind === 'missing')
    return new ServiceUnavailableException(FFMPEG_NEEDED);
  if (error instanceof FfmpegError && error.kind === 'timeout') return tryAgainIn(BUSY_RETRY_SECONDS, BUSY);
  if (error instanceof UndecodableAudioError)
    return new RuleFailed(
      `This book cannot be downloaded now: one of its clips is not audio (${error.file}).`,
    );
  if (error instanceof FfmpegError)
    return new RuleFailed('This book cannot be downloaded now: one of its clips is not audio.');
  if (error instanceof ObjectNotFoundError)
    return new RuleFailed('This book cannot be downloaded now: one of its clips is missing from storage.');
  return error;
}

export const answering = <T>(work: Promise<T>): Promise<T> =>
  work.catch((error: unknown) => {
    throw asAnswer(error);
  });
