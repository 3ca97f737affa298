import { spawnSync } from 'node:child_process';
import { scaled } from '../../scripts/test-limits.cjs';
import { FFMPEG_MISSING_MESSAGE, ffmpegPath } from '../publishing/imports/ffmpeg';

/**
 * The specs that cut real audio need ffmpeg (`npm test` checks for it before it starts): without it a spec
 * run alone fails with the install command instead of skipping unnoticed. A first start on a cold disk,
 * or on a loaded machine, has taken seconds, hence the long limit.
 */
export function requireFfmpeg(): void {
  const answer = spawnSync(ffmpegPath(), ['-version'], { timeout: scaled(60_000), stdio: 'ignore' });
  if (answer.status !== 0) throw new Error(`${FFMPEG_MISSING_MESSAGE} (the tests need it)`);
}
