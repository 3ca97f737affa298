import { ApiProperty } from '@nestjs/swagger';
import { CEFR_LEVELS, DIFFICULTIES, type Book, type CefrLevel } from './entities/book.entity';
import { coverUrl, mediaUrl } from '../../platform/media/media-urls';

/** A book as every API answer shows it (docs/product.md section 3). */
export class BookResponse {
  @ApiProperty() id: number;
  @ApiProperty() book_code: string;
  @ApiProperty() title: string;
  @ApiProperty() author: string;
  @ApiProperty() narrated_by: string;
  @ApiProperty() description: string;
  @ApiProperty({ enum: DIFFICULTIES }) difficulty: string;
  @ApiProperty({
    description:
      "The book's length, hours part, as every page shows it: from its clips once it has chapters with clips (length_source `clips`), else as typed.",
  })
  hours: number;
  @ApiProperty({ description: "The book's length, minutes part (0 to 59); see hours." }) minutes: number;
  @ApiProperty({
    enum: ['clips', 'typed'],
    description: 'Where hours and minutes come from: the sum of the clips, or the typed length.',
  })
  length_source: 'clips' | 'typed';
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The sum of the book's clip durations, in ms; null while it has none.",
  })
  duration_ms: number | null;
  @ApiProperty({ description: 'The hours as the administrator typed them (what Edit Book sends back).' })
  typed_hours: number;
  @ApiProperty({ description: 'The minutes as the administrator typed them.' }) typed_minutes: number;
  @ApiProperty({ description: "The cover's URL." }) image_path: string;
  @ApiProperty({ description: "The sample clip's URL." }) sample_audio: string;
  @ApiProperty() sample_text: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'A BCP 47 language tag.' }) language:
    string | null;
  @ApiProperty({ enum: CEFR_LEVELS, nullable: true, description: 'The CEFR level, when given.' })
  cefr: CefrLevel | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export interface BookLength {
  hours: number;
  minutes: number;
  source: 'clips' | 'typed';
}

/**
 * The length a book shows (docs/catalogue.md, "A book's length"): the sum of its clips once it has
 * chapters with clips, to the nearest minute and at least one; the typed hours and minutes before that.
 */
export function bookLength(book: Pick<Book, 'hours' | 'minutes' | 'clipsMs'>): BookLength {
  if (!book.clipsMs || book.clipsMs <= 0)
    return { hours: book.hours, minutes: book.minutes, source: 'typed' };
  const total = Math.max(1, Math.round(book.clipsMs / 60_000));
  return { hours: Math.floor(total / 60), minutes: total % 60, source: 'clips' };
}

export function toBookResponse(book: Book): BookResponse {
  const length = bookLength(book);
  return {
    id: book.id,
    book_code: book.bookCode,
    title: book.title,
    author: book.author,
    narrated_by: book.narratedBy,
    description: book.description,
    difficulty: book.difficulty,
    hours: length.hours,
    minutes: length.minutes,
    length_source: length.source,
    duration_ms: book.clipsMs && book.clipsMs > 0 ? book.clipsMs : null,
    typed_hours: book.hours,
    typed_minutes: book.minutes,
    image_path: coverUrl(book.coverPath),
    sample_audio: mediaUrl(book.sampleAudioPath),
    sample_text: book.sampleText,
    language: book.language,
    cefr: book.cefr,
    created_at: book.createdAt.toISOString(),
    updated_at: book.updatedAt.toISOString(),
  };
}
