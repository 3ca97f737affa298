import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Three tones with a second of silence between them, as a WAV: a chapter recording that a book without a
 * language cuts at its pauses (docs/alignment.md), so an import preview shows the waveform editor.
 */
export function threeTones(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'lingonovel-e2e-tones-'));
  try {
    const file = join(dir, 'chapter.wav');
    const tone = (hz: number) => ['-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=1.5:sample_rate=44100`];
    const pause = ['-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono:d=1'];
    const made = spawnSync(
      process.env.FFMPEG_PATH ?? 'ffmpeg',
      [
        '-v',
        'error',
        ...tone(330),
        ...pause,
        ...tone(440),
        ...pause,
        ...tone(550),
        '-filter_complex',
        '[0:a][1:a][2:a][3:a][4:a]concat=n=5:v=0:a=1[out]',
        '-map',
        '[out]',
        '-c:a',
        'pcm_s16le',
        file,
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`ffmpeg: ${made.stderr}`);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
