import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Field } from '../../platform/common/field';
import { ToInteger } from '../../platform/common/form-values';
import { ChapterNumber } from '../../platform/common/number-fields';
import { OptionalDateTime, SENT_LATER_MAX_AGE_DAYS } from '../../platform/common/sent-later';

export const MIN_SPEED = 0.5;
export const MAX_SPEED = 1.5;

const SPEED_MESSAGE = `The speed must be a number from ${MIN_SPEED} to ${MAX_SPEED}.`;

export class ProgressDto {
  @Field(
    IsNotEmpty({ message: 'The book code field is required.' }),
    IsString({ message: 'The book code must be text.' }),
    MaxLength(200, { message: 'The book code must not be longer than 200 characters.' }),
  )
  book_code: string;

  @ChapterNumber()
  chapter_no: number;

  @Field(
    ToInteger(),
    IsNotEmpty({ message: 'The position field is required.' }),
    IsInt({ message: 'The position must be a whole number.' }),
    Min(1, { message: 'The position must be 1 or more.' }),
    Max(100_000, { message: 'The position must not be more than 100000.' }),
  )
  position: number;

  @Field(
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))
        ? Number(value)
        : value,
    ),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: SPEED_MESSAGE }),
    Min(MIN_SPEED, { message: SPEED_MESSAGE }),
    Max(MAX_SPEED, { message: SPEED_MESSAGE }),
  )
  speed?: number;

  @OptionalDateTime(
    'The time at that place must be a date and time such as 2026-11-22T09:30:00Z.',
    `When the learner was at that place, for places saved offline and sent later. Without it, now; a time ahead of the server's clock is taken as now; more than ${SENT_LATER_MAX_AGE_DAYS} days ago is refused (422). If the server already holds a place in this book saved after \`at\`, it keeps that place and answers it, with \`kept: true\`.`,
  )
  at?: string;
}

export class ProgressResponse {
  @ApiProperty() book_code: string;
  @ApiProperty() book_title: string;
  @ApiProperty({ description: "The book's cover URL." }) image_path: string;
  @ApiProperty() chapter_no: number;
  @ApiProperty() chapter_title: string;
  @ApiProperty({ description: "The phrase's position within the chapter." }) position: number;
  @ApiProperty() phrase_count: number;
  @ApiProperty({ description: 'The playback speed.' }) speed: number;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class ProgressAnswer {
  @ApiProperty({ type: ProgressResponse }) data: ProgressResponse;
}

/** PUT user/progress: the member's place in the book after the save, and whether the server kept its own. */
export class ProgressSaveAnswer extends ProgressAnswer {
  @ApiProperty({
    required: false,
    type: Boolean,
    description:
      'Always true when present. Only when `at` was sent and the server already held a place in this book saved after it: that place was kept, and `data` is it (its `updated_at` is later than `at`).',
  })
  kept?: true;

  @ApiProperty({ required: false, description: 'With `kept`: the same, for people.' }) message?: string;
}

export class ProgressListAnswer {
  @ApiProperty({ type: [ProgressResponse] }) data: ProgressResponse[];
}
