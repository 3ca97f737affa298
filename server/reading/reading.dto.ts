import type { Phrase } from '../phrases/phrase.entity';
import { splitGlossary, type GlossaryEntry } from './glossary';

export interface ChapterSummary {
  chapter_no: number;
  title: string;
  phrase_count: number;
  duration_ms: number;
  free: boolean;
}

export interface TableOfContents {
  book_code: string;
  title: string;
  chapters: ChapterSummary[];
}

export interface ReaderPhrase {
  id: number;
  position: number;
  phrase: string;
  dictionary: string;
  glossary: GlossaryEntry[];
  audio: string;
  duration_ms: number | null;
}

export interface ReaderChapter {
  book_code: string;
  book_title: string;
  language: string | null;
  chapter_no: number;
  title: string;
  free: boolean;
  prev: number | null;
  next: number | null;
  phrases: ReaderPhrase[];
}

export const toReaderPhrase = (phrase: Phrase, audio: string): ReaderPhrase => ({
  id: phrase.id,
  position: phrase.position,
  phrase: phrase.phrase,
  dictionary: phrase.dictionary,
  glossary: splitGlossary(phrase.dictionary),
  audio,
  duration_ms: phrase.audioMs,
});
