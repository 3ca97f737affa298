// The recording-split tests cut real audio with ffmpeg: Debian's build has the silencedetect filter they use.
import { spawnSync } from 'node:child_process';

/** The ffmpeg the server will run (FFMPEG_PATH, else `ffmpeg` on PATH), or null when it does not answer. */
export function findFfmpeg() {
  const bin = process.env.FFMPEG_PATH?.trim() || 'ffmpeg';
  const result = spawnSync(bin, ['-version'], { encoding: 'utf8', timeout: 10_000 });
  return result.status === 0 && result.stdout.startsWith('ffmpeg version') ? bin : null;
}

export const FFMPEG_HINT =
  "ffmpeg was not found. Install Debian's ffmpeg with: sudo apt-get update && sudo apt-get install -y ffmpeg (or set FFMPEG_PATH).";
