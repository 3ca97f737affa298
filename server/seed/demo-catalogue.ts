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
