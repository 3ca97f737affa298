import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Reading downloaded files with the tools a listener's player would use: ffmpeg and ffprobe. */

const run = promisify(execFile);

/** A file's first audio stream's length, decoded by ffmpeg at its own rate, in microseconds. */
export async function decodedUs(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'a:0',
    '-show_entries',
    'stream=sample_rate',
    '-of',
    'csv=p=0',
    file,
  ]);
  const rate = Number(stdout.trim());
  const bytes = await new Promise<number>((resolve, reject) => {
    const child = spawn('ffmpeg', [
      '-v',
      'error',
      '-i',
      file,
      '-map',
      '0:a:0',
      '-ac',
      '1',
      '-f',
      's16le',
      '-',
    ]);
    let count = 0;
    child.stdout.on('data', (chunk: Buffer) => (count += chunk.length));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(count) : reject(new Error(`ffmpeg exited ${code}`))));
  });
  return ((bytes / 2) * 1_000_000) / rate;
}

/** `00:00:01.234` or `[00:01.23]` in microseconds. */
export const vttUs = (time: string) => {
  const [h, m, s] = time.split(':');
  return (Number(h) * 3600 + Number(m) * 60 + Number(s)) * 1_000_000;
};
export const lrcUs = (time: string) => {
  const [m, s] = time.split(':');
  return (Number(m) * 60 + Number(s)) * 1_000_000;
};

/** The chapter marks of an M4B, as ffprobe reads them. */
export async function chapterMarks(m4b: Buffer, folder: string): Promise<number> {
  const file = join(folder, `${Math.random().toString(36).slice(2)}.m4b`);
  writeFileSync(file, m4b);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_chapters', file]);
  return (JSON.parse(stdout) as { chapters: unknown[] }).chapters.length;
}
