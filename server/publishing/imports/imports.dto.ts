import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { BookImportResponse } from './book-imports.dto';
import type { ImportKind, ImportMode } from './staged-import.entity';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, Min } from 'class-validator';
import { MB } from '../../platform/common/body-limits';
import { Field } from '../../platform/common/field';
import { IsUploadedFile, type UploadedFile } from '../../platform/common/uploaded-file.validator';
import { MAX_PEAK_PAIRS, PEAKS_PER_SECOND } from './recording-peaks';

/** The most clips one chapter import takes, as files or as zip entries. */
export const MAX_CLIPS = 2000;

/** A chapter import's files: the text (a few MB at most) and the clips, many files or one zip. */
export const CHAPTER_IMPORT_UPLOADS = { text: 5 * MB, clips: 500 * MB, recording: 500 * MB };
export const CHAPTER_IMPORT_OPTIONS = { counts: { clips: MAX_CLIPS }, total: 505 * MB + 2 * MB };

export class ChapterImportDto {
  @Field(
    IsNotEmpty({ message: 'Choose the text file of the chapter.' }),
    IsUploadedFile({ message: 'The text must be an uploaded file.' }),
  )
  text: UploadedFile;

  @Field(
    IsOptional(),
    IsArray({ message: 'The clips must be uploaded files.' }),
    ArrayMaxSize(MAX_CLIPS, { message: `At most ${MAX_CLIPS} clips can be imported at once.` }),
    IsUploadedFile({ each: true, message: 'The clips must be uploaded files.' }),
  )
  clips?: UploadedFile[];

  /** The whole chapter in one take, cut at its pauses (instead of clips). */
  @Field(IsOptional(), IsUploadedFile({ message: 'The recording must be an uploaded file.' }))
  recording?: UploadedFile;

  @Field(IsOptional(), IsIn(['append', 'replace'], { message: 'The mode must be append or replace.' }))
  mode?: 'append' | 'replace';
}

export class BoundariesDto {
  /** Where each phrase after the first starts, in ms from the start of the recording. */
  @Field(
    IsArray({ message: 'The boundaries must be a list of times in ms.' }),
    ArrayMaxSize(MAX_CLIPS, { message: `At most ${MAX_CLIPS - 1} boundaries.` }),
  )
  cuts: number[];

  /** An aligned recording: where the text starts and ends (what is outside is left out of the clips). */
  @Field(
    IsOptional(),
    IsInt({ message: 'start_ms must be a whole number of ms.' }),
    Min(0, { message: 'start_ms must be 0 or more.' }),
  )
  start_ms?: number;

  @Field(
    IsOptional(),
    IsInt({ message: 'end_ms must be a whole number of ms.' }),
    Min(0, { message: 'end_ms must be 0 or more.' }),
  )
  end_ms?: number;
}

/** A commit's body, which may be empty. */
export class CommitDto {
  /** Commits a recording the aligner found unlike its text (most rows unsure), as the author heard it. */
  @Field(IsOptional(), IsBoolean({ message: 'confirm must be true or false.' }))
  confirm?: boolean;
}

/** A row of a chapter import's preview, as the API answers it. */
export class ImportRowResponse {
  @ApiProperty({ description: 'The row number in the text, from 1.' }) n: number;
  @ApiProperty() phrase: string;
  @ApiProperty() dictionary: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { en: 'Good morning.' },
    description: 'Its translations by BCP 47 tag, from the translation:<tag> columns; {} when none.',
  })
  translations: Record<string, string>;
  @ApiProperty({ type: 'string', nullable: true, description: "The clip's file name." }) clip: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) duration_ms: number | null;
  @ApiProperty({ required: false, description: "In recording mode, where the phrase's segment starts." })
  start_ms?: number;
  @ApiProperty({ required: false, description: "In recording mode, where the phrase's segment ends." })
  end_ms?: number;
  @ApiProperty({
    required: false,
    description: 'An aligned recording: how sure the aligner is of this segment, 0 to 1 (docs/alignment.md).',
  })
  confidence?: number;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "A short-lived signed URL the preview's <audio> plays (it cannot send the token).",
  })
  audio: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'What is wrong with the row.' }) error:
    string | null;
}

export class RecordingPreview {
  @ApiProperty({ description: 'A short-lived signed URL of the whole recording.' }) url: string;
  @ApiProperty() duration_ms: number;
  @ApiProperty({ type: [Number], description: 'Where each phrase after the first starts, in ms.' })
  cuts: number[];
  @ApiProperty({
    description: 'Where the text starts: what comes before (an announcement, music) is left out.',
  })
  start_ms: number;
  @ApiProperty({ description: 'Where the text ends.' }) end_ms: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Rows under this confidence are unsure; null when not aligned.',
  })
  unsure_below: number | null;
  @ApiProperty({ description: 'How many rows are unsure.' }) unsure: number;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'When most rows are unsure: the warning (also in `errors`) that the recording may be of another text. The commit then needs `{ "confirm": true }`.',
  })
  mismatch: string | null;
}

export class AlignmentProgress {
  @ApiProperty({ description: '0 to 100.' }) percent: number;
  @ApiProperty({ description: 'The seconds left, as last estimated.' }) eta_s: number;
}

/** A recording being aligned by a job (202): look again at GET admin/import/{id} until it is ready. */
export class ImportAligning {
  @ApiProperty() import_id: string;
  @ApiProperty({ enum: ['aligning'] }) status: 'aligning';
  @ApiProperty({ type: AlignmentProgress }) progress: AlignmentProgress;
}

export class ImportAligningAnswer {
  @ApiProperty({ type: ImportAligning }) data: ImportAligning;
}

/** A chapter import's preview, as the staging call and a later look answer it. */
export class ChapterImportResponse {
  @ApiProperty() import_id: string;
  @ApiProperty({ enum: ['ready'], description: 'A preview is ready: its import may be committed.' })
  status: 'ready';
  @ApiProperty({ enum: ['chapter', 'book'] }) kind: ImportKind;
  @ApiProperty({ enum: ['append', 'replace'] }) mode: ImportMode;
  @ApiProperty({ type: 'integer', nullable: true }) chapter_id: number | null;
  @ApiProperty({ description: "The text's format, as detected." }) format: string;
  @ApiProperty({ type: RecordingPreview, nullable: true, description: 'In recording mode only.' })
  recording: RecordingPreview | null;
  @ApiProperty({ type: 'string', nullable: true }) notice: string | null;
  @ApiProperty({ type: [ImportRowResponse] }) rows: ImportRowResponse[];
  @ApiProperty({ type: [String], description: 'Every problem; the commit waits until there are none.' })
  errors: string[];
  @ApiProperty({ format: 'date-time' }) expires_at: string;
}

export class ChapterImportAnswer {
  @ApiProperty({ type: ChapterImportResponse }) data: ChapterImportResponse;
}

/** A later look at a staged import: a chapter's preview or a book's, by `kind`. */
export class ImportPreviewAnswer {
  @ApiProperty({
    oneOf: [
      { $ref: getSchemaPath(ChapterImportResponse) },
      { $ref: getSchemaPath(BookImportResponse) },
      { $ref: getSchemaPath(ImportAligning) },
    ],
  })
  data: ChapterImportResponse | BookImportResponse | ImportAligning;
}

export class ImportCommitted {
  @ApiProperty({ required: false, description: 'A chapter import: how many phrases were added.' })
  added?: number;
  @ApiProperty({
    description: "A book import: the new book's code. A chapter import: its book's code.",
  })
  book_code: string;
  @ApiProperty({
    required: false,
    description: "A chapter import: the chapter's number; its reader page is /read/{book_code}/{chapter_no}.",
  })
  chapter_no?: number;
}

/** A recording's waveform: min/max pairs the preview's editor draws (docs/import.md). */
export class RecordingPeaksResponse {
  @ApiProperty({ type: 'integer', description: "The recording's decoded length, in ms." })
  duration_ms: number;
  @ApiProperty({ description: 'How much of the recording each pair stands for, in ms.' }) ms_per_pair: number;
  @ApiProperty({ enum: [8], description: 'Values are whole numbers from −127 to 127 (full scale).' })
  bits: 8;
  @ApiProperty({
    type: [Number],
    maxItems: MAX_PEAK_PAIRS * 2,
    description: `Pairs in order, the lowest then the highest sample of each stretch: at most ${MAX_PEAK_PAIRS} pairs (${PEAKS_PER_SECOND} a second on a short recording).`,
  })
  data: number[];
}

export class RecordingPeaksAnswer {
  @ApiProperty({ type: RecordingPeaksResponse }) data: RecordingPeaksResponse;
}

export class ImportCommitAnswer {
  @ApiProperty() message: string;
  @ApiProperty({ type: ImportCommitted }) data: ImportCommitted;
}
