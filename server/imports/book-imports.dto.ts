import { IsNotEmpty } from 'class-validator';
import { MB } from '../common/body-limits';
import { Field } from '../common/field';
import { IsUploadedFile, type UploadedFile } from '../common/uploaded-file.validator';

/** A whole book's zip: as large as a chapter import's clips, and read with the same limits. */
/**
 * A whole book: 30 chapters of 400 phrases is 12,000 clips and several hundred MB, so a book's zip gets
 * room for that (the chapter import's limits would refuse a real book's own export).
 */
export const BOOK_IMPORT_UPLOADS = { zip: 2048 * MB };
export const BOOK_ZIP_LIMITS = {
  entries: 20_000,
  totalBytes: 2048 * MB,
  ratioFromBytes: 10 * MB,
  maxRatio: 100,
};

export class BookImportDto {
  @Field(
    IsNotEmpty({ message: 'Choose the zip of the book.' }),
    IsUploadedFile({ message: 'The zip must be an uploaded file.' }),
  )
  zip: UploadedFile;
}

/** A book import's preview, as the API answers it. */
export interface BookImportResponse {
  import_id: string;
  kind: 'book';
  book: {
    /** The code in book.json; the commit keeps it when it is free, and makes a new one otherwise. */
    book_code: string | null;
    title: unknown;
    author: unknown;
    narrated_by: unknown;
    hours: unknown;
    minutes: unknown;
    description: unknown;
    difficulty: unknown;
    sample_text: unknown;
    language: unknown;
    /** The names of the cover and the sample in the zip. */
    book_image: string | null;
    sample_audio: string | null;
    sample_duration_ms: number | null;
    /** Problems per field, named as the admin book form names them. */
    errors: Record<string, string[]>;
  };
  chapters: Array<{
    folder: string;
    chapter_no: number | null;
    title: string;
    /** How many phrases the chapter's text has. */
    rows: number;
    duration_ms: number;
    errors: string[];
  }>;
  /** Every problem of the import, the book's and each chapter's; the commit waits until there are none. */
  errors: string[];
  expires_at: string;
}
