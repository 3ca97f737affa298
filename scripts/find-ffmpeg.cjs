// The recording-split tests cut real audio with ffmpeg: Debian's build has the silencedetect filter they use.
// CommonJS, so that both `npm test` (scripts/test.mjs) and the Jest specs (server/test/ffmpeg-present.ts) use it.
const { spawnSync } = require('node:child_process');
const { scaled } = require('./test-limits.cjs');

/**
 * The ffmpeg the server will run (FFMPEG_PATH, else `ffmpeg` on PATH): `{ bin }` when it answers with its
 * version, else `{ problem }`, what went wrong in a few words. A first start right after apt-get, on a disk
 * still busy with npm's writes, loads two hundred libraries cold: the limit is long, and a start that runs
 * out of it is tried again (`attempts` in all) before ffmpeg is called missing.
 */
function findFfmpeg({ timeoutMs = scaled(120_000), attempts = 2 } = {}) {
  const bin = process.env.FFMPEG_PATH?.trim() || 'ffmpeg';
  let problem = '';
  for (let attempt = 0; attempt < attempts; attempt++) {
    const result = spawnSync(bin, ['-version'], { encoding: 'utf8', timeout: timeoutMs });
    if (result.status === 0 && result.stdout.startsWith('ffmpeg version')) return { bin };
    if (result.error?.code === 'ETIMEDOUT') {
      problem = `\`${bin} -version\` gave no answer in ${timeoutMs / 1000} s`;
      continue;
    }
    if (result.error)
      return {
        problem: `\`${bin} -version\` could not start (${result.error.code ?? result.error.message})`,
      };
    const said = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim().split('\n').slice(0, 3).join(' / ');
    const ended = result.signal
      ? `was stopped by ${result.signal}`
      : result.status === 0
        ? 'printed no ffmpeg version line'
        : `exited with ${result.status}`;
    return { problem: `\`${bin} -version\` ${ended}${said ? `: ${said}` : ''}` };
  }
  return { problem };
}

const FFMPEG_HINT =
  "Install Debian's ffmpeg with: sudo apt-get update && sudo apt-get install -y ffmpeg (or set FFMPEG_PATH).";

module.exports = { findFfmpeg, FFMPEG_HINT };
