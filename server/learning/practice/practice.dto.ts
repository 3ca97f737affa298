import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { Field } from '../../platform/common/field';
import { ToInteger } from '../../platform/common/form-values';
import { AnyText } from '../../platform/common/stored-text';
import { ANSWER_MAX, type DictationStatus, type DiffOp } from './dictation-compare';
import { PHRASE_MARKS, type PhraseMarkValue } from './phrase-mark.entity';

/** The most a dictation may hold, in characters: far more than any phrase (2,000 at most). */
export const DICTATION_MAX = ANSWER_MAX;
const MARK_MESSAGE = 'The mark must be got, unsure or lost.';

/**
 * Dictations and marks a member may send a minute: one per phrase heard is a few a minute, even typing
 * fast or tapping through a chapter, so this only stops a script.
 */
export const DICTATION_LIMIT = {
  bucket: 'dictation',
  limit: 60,
  windowMs: 60_000,
  message: 'Too many dictations sent. Please try again in a minute.',
};
/**
 * Characters a member's dictations may have compared in a minute, the phrase's and the answer's (as kept:
 * keptAnswer), counted by the thousand begun: 1 for a phrase of 300 characters and its answer, 11 for the
 * longest phrase (2,000) and the longest answer kept (8,100). A minute of honest practice spends 60 at
 * most, as many as the dictations; pasted walls of text, about nine of the longest a minute.
 */
export const DICTATION_COST_LIMIT = {
  bucket: 'dictation-cost',
  limit: 100,
  windowMs: 60_000,
  unit: 1_000,
  message:
    'Too much dictation text sent in the last minute (long answers count more). Please try again in a minute.',
};
export const MARKS_LIMIT = {
  bucket: 'marks',
  limit: 120,
  windowMs: 60_000,
  message: 'Too many marks sent. Please try again in a minute.',
};

const phraseIdRules = () =>
  [
    ToInteger(),
    IsNotEmpty({ message: 'The phrase id field is required.' }),
    IsInt({ message: 'The phrase id must be a whole number.' }),
    Min(1, { message: 'The phrase id must be 1 or more.' }),
    Max(2_147_483_647, { message: 'The phrase id is too large.' }),
  ] as const;

export class DictationDto {
  @Field(...phraseIdRules())
  phrase_id: number;

  /** What the learner typed, any character; empty is an answer too (every word missing). */
  @Field(
    AnyText(),
    IsDefined({ message: 'The text field is required.' }),
    IsString({ message: 'The text must be text.' }),
    MaxLength(DICTATION_MAX, {
      message: `The text must not be longer than ${DICTATION_MAX.toLocaleString('en')} characters.`,
    }),
  )
  text: string;

  /** Accents count fully (a wrong or missing accent is a misspelt word). */
  @Field(
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      value === 'true' ? true : value === 'false' ? false : value,
    ),
    IsBoolean({ message: 'Strict must be true or false.' }),
  )
  strict?: boolean;
}

/** One chapter of one book: what the reader shows scores or marks for. */
export class ChapterQuery {
  @Field(
    IsNotEmpty({ message: 'The book code field is required.' }),
    IsString({ message: 'The book code must be text.' }),
    MaxLength(200, { message: 'The book code must not be longer than 200 characters.' }),
  )
  book_code: string;

  @Field(
    ToInteger(),
    IsNotEmpty({ message: 'The chapter number field is required.' }),
    IsInt({ message: 'The chapter number must be a whole number.' }),
    Min(1, { message: 'The chapter number must be 1 or more.' }),
    Max(2_147_483_647, { message: 'The chapter number is too large.' }),
  )
  chapter_no: number;
}

export class MarkDto {
  @Field(...phraseIdRules())
  phrase_id: number;

  @Field(
    IsNotEmpty({ message: 'The mark field is required.' }),
    IsIn(PHRASE_MARKS, { message: MARK_MESSAGE }),
  )
  mark: PhraseMarkValue;
}

export class DictationWordAnswer {
  @ApiProperty({ type: 'string', nullable: true, description: "The phrase's word; null for an extra word." })
  expected: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The word typed; null for a missing word.' })
  typed: string | null;
  @ApiProperty({ enum: ['correct', 'missing', 'extra', 'misspelt', 'accent'] }) status: DictationStatus;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
    description:
      'For misspelt and accent words: the letters, lower case, as [op, text] runs: "=" in both, "-" expected but not typed, "+" typed in excess.',
  })
  diff?: Array<[DiffOp, string]>;
}

export class DictationResultData {
  @ApiProperty() phrase_id: number;
  @ApiProperty({ description: 'From 0 to 100 (docs/practice.md gives the rules).' }) score: number;
  @ApiProperty() strict: boolean;
  @ApiProperty({ type: [DictationWordAnswer] }) words: DictationWordAnswer[];
}

export class DictationResultAnswer {
  @ApiProperty({ type: DictationResultData }) data: DictationResultData;
}

export class DictationPhraseScore {
  @ApiProperty() phrase_id: number;
  @ApiProperty({ description: 'The latest attempt’s score.' }) score: number;
  @ApiProperty() attempts: number;
}

export class DictationChapter {
  @ApiProperty({ type: [DictationPhraseScore], description: 'The phrases tried, in reading order.' })
  phrases: DictationPhraseScore[];
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'The mean of the latest scores, rounded; null with no attempt.',
  })
  total: number | null;
}

export class DictationChapterAnswer {
  @ApiProperty({ type: DictationChapter }) data: DictationChapter;
}

export class MarkResult {
  @ApiProperty() phrase_id: number;
  @ApiProperty({ enum: PHRASE_MARKS }) mark: PhraseMarkValue;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'The phrase card (a saved word of kind "phrase"); made by unsure and lost, null for got without one.',
  })
  card_id: number | null;
}

export class MarkAnswer {
  @ApiProperty({ type: MarkResult }) data: MarkResult;
}

export class ChapterMark {
  @ApiProperty() phrase_id: number;
  @ApiProperty({ enum: PHRASE_MARKS }) mark: PhraseMarkValue;
}

export class ChapterMarksAnswer {
  @ApiProperty({ type: [ChapterMark] }) data: ChapterMark[];
}
