import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsOptional } from 'class-validator';
import { MB } from '../common/body-limits';
import { Field } from '../common/field';
import { IsUploadedFile, type UploadedFile } from '../common/uploaded-file.validator';

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
}

/** A row of a chapter import's preview, as the API answers it. */
export interface ImportRowResponse {
  n: number;
  phrase: string;
  dictionary: string;
  clip: string | null;
  duration_ms: number | null;
  /** In recording mode, where the phrase's segment starts and ends in the recording. */
  start_ms?: number;
  end_ms?: number;
  /** A short-lived signed URL the preview's <audio> plays (it cannot send the token). */
  audio: string | null;
  error: string | null;
}
