import { spawnSync } from 'node:child_process';
import { scaled } from '../../scripts/test-limits.cjs';
import { FFMPEG_MISSING_MESSAGE, ffmpegPath } from '../publishing/imports/ffmpeg';

/**
 * The specs that cut real audio need ffmpeg (`npm test` checks for it before it starts): without it a spec
 * run alone fails, saying what went wrong, instead of skipping unnoticed. A first start on a cold disk, or
 * on a loaded machine, has taken seconds, hence the long limit.
 */
export function failWithoutFfmpeg(): void {
  const bin = ffmpegPath();
  const answer = spawnSync(bin, ['-version'], { timeout: scaled(60_000), stdio: 'ignore' });
  if (answer.status === 0) return;
  const what = answer.error
    ? `\`${bin} -version\` failed: ${(answer.error as NodeJS.ErrnoException).code ?? answer.error.message}`
    : `\`${bin} -version\` ended with ${answer.signal ?? `exit code ${answer.status}`}`;
  throw new Error(`${what}. ${FFMPEG_MISSING_MESSAGE} (the tests need it)`);
}
