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
  const parsed = JSON.parse(readFileSync(join(dir, DEMO_LENGTHS_FILE), 'utf8')) as {
    lengths_us: Record<string, number>;
  };
  return new Map(Object.entries(parsed.lengths_us));
}

/** Every audio file the demo catalogue names (samples and clips), each once, in the catalogue's order. */
export function demoAudioFiles(books: readonly DemoBook[]): string[] {
  const files = books.flatMap((book) => [
    book.sample_audio,
    ...book.chapters.flatMap((chapter) => chapter.phrases.map((phrase) => phrase.audio)),
  ]);
  return [...new Set(files)];
}
