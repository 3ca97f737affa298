import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(__dirname, 'fixtures');

/** A fixture file as a browser would attach it to a form. */
export function fixture(name: string): Blob {
  return new Blob([readFileSync(join(DIR, name))]);
}

export function form(fields: Record<string, string | number | [Blob, string] | undefined>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) data.set(key, value[0], value[1]);
    else data.set(key, String(value));
  }
  return data;
}

export const BOOK_FIELDS = {
  title: 'Le Petit Voyage',
  author: 'Claire Dubois',
  narrated_by: 'Marc Lefèvre',
  hours: '2',
  minutes: '35',
  description: 'A short trip to Lyon.',
  difficulty: 'Easy',
  sample_text: 'Line one.\r\nLine two.',
};

export function bookForm(overrides: Record<string, string | [Blob, string] | undefined> = {}): FormData {
  return form({
    ...BOOK_FIELDS,
    book_image: [fixture('cover.jpg'), 'cover.jpg'],
    sample_audio: [fixture('clip.mp3'), 'clip.mp3'],
    ...overrides,
  });
}

/** Every file under a media folder, relative to it, for asserting what is on disk. */
export function mediaFiles(storageDir: string): string[] {
  const root = join(storageDir, 'media');
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
    .sort();
}

export function tempFiles(storageDir: string): string[] {
  return readdirSync(join(storageDir, 'tmp'));
}
