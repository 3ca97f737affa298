import { ApiProperty } from '@nestjs/swagger';
import type { Phrase } from '../../content/catalogue/entities/phrase.entity';
import { splitGlossary, type GlossaryEntry } from '../../content/catalogue/glossary';

export class ChapterSummary {
  @ApiProperty() chapter_no: number;
  @ApiProperty() title: string;
  @ApiProperty() phrase_count: number;
  @ApiProperty({ description: "The sum of its phrases' known durations." }) duration_ms: number;
  @ApiProperty({ description: 'Whether anyone may read it, without a subscription.' }) free: boolean;
}

export class TableOfContents {
  @ApiProperty() book_code: string;
  @ApiProperty({ description: "The book's title." }) title: string;
  @ApiProperty({ type: [ChapterSummary] }) chapters: ChapterSummary[];
}

export class GlossaryTerm implements GlossaryEntry {
  @ApiProperty() term: string;
  @ApiProperty() meaning: string;
}

export class ReaderPhrase {
  @ApiProperty() id: number;
  @ApiProperty() position: number;
  @ApiProperty() phrase: string;
  @ApiProperty({ description: 'Glossary entries, one per line.' }) dictionary: string;
  @ApiProperty({ type: [GlossaryTerm], description: 'The dictionary, split into terms.' })
  glossary: GlossaryEntry[];
  @ApiProperty({ description: "The clip's URL; signed and expiring when the chapter is locked." })
  audio: string;
  @ApiProperty({ type: 'integer', nullable: true }) duration_ms: number | null;
}

/** A phrase as the chapter API gives it: with the translations asked for (docs/practice.md). */
export class TranslatedReaderPhrase extends ReaderPhrase {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { en: 'Good morning.' },
    description: 'The asked languages this phrase has a translation in, by BCP 47 tag; {} when none.',
  })
  translations: Record<string, string>;
}

/** The chapter as the shared reader page shows it (publicView): the same for everyone, no translations. */
export class ReaderChapter {
  @ApiProperty() book_code: string;
  @ApiProperty() book_title: string;
  @ApiProperty({ type: 'string', nullable: true }) language: string | null;
  @ApiProperty() chapter_no: number;
  @ApiProperty() title: string;
  @ApiProperty() free: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: "The previous chapter's number." })
  prev: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: "The next chapter's number." })
  next: number | null;
  @ApiProperty({ type: [ReaderPhrase] }) phrases: ReaderPhrase[];
  @ApiProperty({
    type: [String],
    description: 'Every language any of its phrases has a translation in (BCP 47), sorted.',
  })
  translation_languages: string[];
}

/** The chapter API's answer: the reader page's view, each phrase with its asked translations. */
export class TranslatedReaderChapter extends ReaderChapter {
  @ApiProperty({ type: [TranslatedReaderPhrase] }) declare phrases: TranslatedReaderPhrase[];
}

export class TableOfContentsAnswer {
  @ApiProperty({ type: TableOfContents }) data: TableOfContents;
}

export class ReaderChapterAnswer {
  @ApiProperty({ type: TranslatedReaderChapter }) data: TranslatedReaderChapter;
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
