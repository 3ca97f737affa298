import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_DIR } from '../platform/paths';
import type { CefrLevel, Difficulty } from '../content/catalogue/entities/book.entity';

export interface DemoPhrase {
  phrase: string;
  dictionary: string;
  audio: string;
  /** By canonical BCP 47 tag: English for every phrase, German too for le-petit-voyage. */
  translations?: Record<string, string>;
}

export interface DemoBook {
  title: string;
  author: string;
  narrated_by: string;
  language: string;
  cefr: CefrLevel;
  difficulty: Difficulty;
  hours: number;
  minutes: number;
  description: string;
  sample_text: string;
  cover: string;
  sample_audio: string;
  chapters: Array<{ chapter_no: number; title: string; phrases: DemoPhrase[] }>;
}

export function readDemoCatalogue(dir = DEMO_DIR): { dir: string; books: DemoBook[] } {
  const parsed = JSON.parse(readFileSync(join(dir, 'catalogue.json'), 'utf8')) as { books: DemoBook[] };
  return { dir, books: parsed.books };
}

/** Where the demo's audio files keep their decoded lengths, beside catalogue.json. */
export const DEMO_LENGTHS_FILE = 'lengths.json';

/**
 * Each demo audio file's decoded length in microseconds (by its path in the demo folder), measured once
 * by `node scripts/demo-lengths.mjs` and checked against ffmpeg by server/seed/demo-lengths.spec.ts: the
 * seed keeps them as if it had measured the files, so a first start decodes none of them.
 */
export function readDemoLengths(dir = DEMO_DIR): Map<string, number> {
  let text: string;
  try {
    text = readFileSync(join(dir, DEMO_LENGTHS_FILE), 'utf8');
  } catch (error) {
    // Without the file every clip is measured after the seed, as an import's.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  const parsed = JSON.parse(text) as { lengths_us?: Record<string, unknown> };
  // Only whole microseconds are lengths; anything else is measured after the seed too.
  return new Map(
    Object.entries(parsed.lengths_us ?? {}).filter(
      (entry): entry is [string, number] => Number.isSafeInteger(entry[1]) && (entry[1] as number) > 0,
    ),
  );
}

/** Every audio file the demo catalogue names (samples and clips), each once, in the catalogue's order. */
export function demoAudioFiles(books: readonly DemoBook[]): string[] {
  const files = books.flatMap((book) => [
    book.sample_audio,
    ...book.chapters.flatMap((chapter) => chapter.phrases.map((phrase) => phrase.audio)),
  ]);
  return [...new Set(files)];
}
