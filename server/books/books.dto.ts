import type { Book } from './book.entity';
import { coverUrl, mediaUrl } from '../media/media-urls';

/** A book as every API answer shows it (SPEC.md section 3). */
export interface BookResponse {
  id: number;
  book_code: string;
  title: string;
  author: string;
  narrated_by: string;
  description: string;
  difficulty: string;
  hours: number;
  minutes: number;
  image_path: string;
  sample_audio: string;
  sample_text: string;
  created_at: string;
  updated_at: string;
}

export function toBookResponse(book: Book): BookResponse {
  return {
    id: book.id,
    book_code: book.bookCode,
    title: book.title,
    author: book.author,
    narrated_by: book.narratedBy,
    description: book.description,
    difficulty: book.difficulty,
    hours: book.hours,
    minutes: book.minutes,
    image_path: coverUrl(book.coverPath),
    sample_audio: mediaUrl(book.sampleAudioPath),
    sample_text: book.sampleText,
    created_at: book.createdAt.toISOString(),
    updated_at: book.updatedAt.toISOString(),
  };
}
