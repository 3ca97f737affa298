import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsNotEmpty } from 'class-validator';
import { MB } from '../../platform/common/body-limits';
import { Field } from '../../platform/common/field';
import { IsUploadedFile, type UploadedFile } from '../../platform/common/uploaded-file.validator';

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
/**
 * A value as book.json has it, not yet checked: `errors` says what is wrong with it. Any JSON value: in
 * OpenAPI 3.0 `nullable` means something only beside a `type`, so null is one of the alternatives.
 */
const AS_WRITTEN: ApiPropertyOptions = {
  description: 'As book.json has it (any JSON value, or null); `errors` says what is wrong with it.',
  oneOf: [
    { type: 'string', nullable: true },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'object' },
    { type: 'array', items: {} },
  ],
};

export class BookImportBook {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The code in book.json; the commit keeps it when it is free, and makes a new one otherwise.',
  })
  book_code: string | null;
  @ApiProperty(AS_WRITTEN) title: unknown;
  @ApiProperty(AS_WRITTEN) author: unknown;
  @ApiProperty(AS_WRITTEN) narrated_by: unknown;
  @ApiProperty(AS_WRITTEN) hours: unknown;
  @ApiProperty(AS_WRITTEN) minutes: unknown;
  @ApiProperty(AS_WRITTEN) description: unknown;
  @ApiProperty(AS_WRITTEN) difficulty: unknown;
  @ApiProperty(AS_WRITTEN) sample_text: unknown;
  @ApiProperty(AS_WRITTEN) language: unknown;
  @ApiProperty(AS_WRITTEN) cefr: unknown;
  @ApiProperty({ type: 'string', nullable: true, description: "The cover's name in the zip." })
  book_image: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: "The sample's name in the zip." })
  sample_audio: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) sample_duration_ms: number | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description: 'Problems per field, named as the admin book form names them.',
  })
  errors: Record<string, string[]>;
}

export class BookImportChapter {
  @ApiProperty({ description: "The chapter's folder in the zip." }) folder: string;
  @ApiProperty({ type: 'integer', nullable: true }) chapter_no: number | null;
  @ApiProperty() title: string;
  @ApiProperty({ description: "How many phrases the chapter's text has." }) rows: number;
  @ApiProperty() duration_ms: number;
  @ApiProperty({ type: [String] }) errors: string[];
}

/** A book import's preview, as the API answers it. */
export class BookImportResponse {
  @ApiProperty() import_id: string;
  @ApiProperty({ enum: ['book'] }) kind: 'book';
  @ApiProperty({ type: BookImportBook }) book: BookImportBook;
  @ApiProperty({ type: [BookImportChapter] }) chapters: BookImportChapter[];
  @ApiProperty({
    type: [String],
    description:
      "Every problem of the import, the book's and each chapter's; the commit waits until there are none.",
  })
  errors: string[];
  @ApiProperty({ format: 'date-time' }) expires_at: string;
}

export class BookImportAnswer {
  @ApiProperty({ type: BookImportResponse }) data: BookImportResponse;
}

export class ExportLink {
  @ApiProperty({ description: 'The signed download URL (no token needed).' }) url: string;
  @ApiProperty({ format: 'date-time' }) expires_at: string;
}

export class ExportLinkAnswer {
  @ApiProperty({ type: ExportLink }) data: ExportLink;
}
