// The recording-split tests cut real audio with ffmpeg: Debian's build has the silencedetect filter they use.
import { spawnSync } from 'node:child_process';
import { scaled } from './test-limits.cjs';

/**
 * The ffmpeg the server will run (FFMPEG_PATH, else `ffmpeg` on PATH): `{ bin }` when it answers with its
 * version, else `{ problem }`, what went wrong in a few words. A first start right after apt-get, on a disk
 * still busy with npm's writes, loads two hundred libraries cold: the limit is long, and a start that runs
 * out of it is tried once more before ffmpeg is called missing.
 */
export function findFfmpeg() {
  const bin = process.env.FFMPEG_PATH?.trim() || 'ffmpeg';
  let problem = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = spawnSync(bin, ['-version'], { encoding: 'utf8', timeout: scaled(120_000) });
    if (result.status === 0 && result.stdout.startsWith('ffmpeg version')) return { bin };
    if (result.error?.code === 'ETIMEDOUT')
      problem = `\`${bin} -version\` gave no answer in ${scaled(120)} s`;
    else if (result.error)
      problem = `\`${bin} -version\` could not start (${result.error.code ?? result.error.message})`;
    else {
      const said = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim().split('\n').slice(0, 3).join(' / ');
      const ended = result.signal
        ? `was stopped by ${result.signal}`
        : result.status === 0
          ? 'printed no ffmpeg version line'
          : `exited with ${result.status}`;
      return { problem: `\`${bin} -version\` ${ended}${said ? `: ${said}` : ''}` };
    }
    if (result.error?.code !== 'ETIMEDOUT') break;
  }
  return { problem };
}

export const FFMPEG_HINT =
  "Install Debian's ffmpeg with: sudo apt-get update && sudo apt-get install -y ffmpeg (or set FFMPEG_PATH).";
