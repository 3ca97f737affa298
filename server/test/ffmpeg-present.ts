import { findFfmpeg } from '../../scripts/find-ffmpeg.cjs';
import { scaled } from '../../scripts/test-limits.cjs';
import { FFMPEG_MISSING_MESSAGE } from '../publishing/imports/ffmpeg';

/**
 * The specs that cut real audio need ffmpeg (`npm test` checks for it before it starts, with the same
 * check): without it a spec run alone fails, saying what went wrong, instead of skipping unnoticed. One
 * try of a minute, so that the message comes before the hook's own limit.
 */
export function failWithoutFfmpeg(): void {
  const { problem } = findFfmpeg({ timeoutMs: scaled(60_000), attempts: 1 });
  if (problem) throw new Error(`${problem}. ${FFMPEG_MISSING_MESSAGE} (the tests need it)`);
}
