import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Field } from '../common/field';
import { ToInteger } from '../common/form-values';
import { ChapterNumber } from '../chapters/chapters.dto';

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

export class ProgressListAnswer {
  @ApiProperty({ type: [ProgressResponse] }) data: ProgressResponse[];
}
