import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { Field } from '../../platform/common/field';
import { isKnownLanguage } from '../../content/catalogue/languages';
import { ToInteger, Trim, TrimLines } from '../../platform/common/form-values';
import { IsUploadedFile, type UploadedFile } from '../../platform/common/uploaded-file.validator';
import { BookResponse } from '../../content/catalogue/book-response';
import {
  CEFR_LEVELS,
  DIFFICULTIES,
  type CefrLevel,
  type Difficulty,
} from '../../content/catalogue/entities/book.entity';
import { IsAudioFile, IsCoverImage } from '../../platform/media/upload-checks';

export { BOOK_UPLOADS } from '../../platform/common/body-limits';

const required = (label: string) => IsNotEmpty({ message: `The ${label} field is required.` });
const text = (label: string, max: number) =>
  Field(
    IsString({ message: `The ${label} must be text.` }),
    MaxLength(max, { message: `The ${label} must not be longer than ${max} characters.` }),
  );

const Text = (label: string, max: number) => Field(Trim(), required(label), text(label, max));
const LongText = (label: string, max: number) => Field(TrimLines(), required(label), text(label, max));

/**
 * The fields of the Add Book and Edit Book forms (docs/product.md section 5). The files' contents are
 * checked here too, with the other fields, so that one 422 names every problem (platform/media/upload-checks.ts).
 */
class BookFieldsDto {
  @Text('title', 200)
  title: string;

  @Text('author', 200)
  author: string;

  @Text('narrated by', 200)
  narrated_by: string;

  @Field(
    ToInteger(),
    required('hours'),
    IsInt({ message: 'The hours must be a whole number.' }),
    Min(0, { message: 'The hours must be 0 or more.' }),
    Max(10_000, { message: 'The hours must not be more than 10000.' }),
  )
  hours: number;

  @Field(
    ToInteger(),
    required('minutes'),
    IsInt({ message: 'The minutes must be a whole number.' }),
    Min(0, { message: 'The minutes must be between 0 and 59.' }),
    Max(59, { message: 'The minutes must be between 0 and 59.' }),
  )
  minutes: number;

  @LongText('description', 5000)
  description: string;

  @Field(
    Trim(),
    required('difficulty'),
    IsIn(DIFFICULTIES, { message: 'The difficulty must be Easy, Medium or Hard.' }),
  )
  difficulty: Difficulty;

  @LongText('sample text', 10_000)
  sample_text: string;

  /** Optional: "fr", "es", "pt-PT"… An empty value clears it. */
  @Field(
    Trim(),
    Transform(({ value }: { value: unknown }) => (value === '' ? null : value)),
    IsOptional(),
    Matches(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, {
      message: 'The language must be a language code such as fr, es or pt-PT.',
    }),
    ValidateBy(
      {
        name: 'isKnownLanguage',
        validator: { validate: (value) => typeof value === 'string' && isKnownLanguage(value) },
      },
      {
        message:
          'The language must be a language code such as fr, es or pt-PT, of a language this server can name.',
      },
    ),
  )
  language?: string | null;

  /** Optional: A1 to C2. An empty value clears it; anything else is refused. */
  @Field(
    Trim(),
    Transform(({ value }: { value: unknown }) => (value === '' ? null : value)),
    IsOptional(),
    IsIn(CEFR_LEVELS, { message: 'The CEFR level must be one of A1, A2, B1, B2, C1 or C2.' }),
  )
  cefr?: CefrLevel | null;
}

const coverFile = [IsUploadedFile({ message: 'The book image must be an uploaded file.' }), IsCoverImage()];
const sampleFile = [IsUploadedFile({ message: 'The sample audio must be an uploaded file.' }), IsAudioFile()];

/** On Add Book the cover and the sample are required too (docs/product.md section 5). */
export class CreateBookDto extends BookFieldsDto {
  @Field(required('book image'), ...coverFile)
  book_image: UploadedFile;

  @Field(required('sample audio'), ...sampleFile)
  sample_audio: UploadedFile;
}

/** On Edit Book the files are optional: what is not sent stays as it was. */
export class UpdateBookDto extends BookFieldsDto {
  @Field(IsOptional(), ...coverFile)
  book_image?: UploadedFile;

  @Field(IsOptional(), ...sampleFile)
  sample_audio?: UploadedFile;
}

export class BookAnswer {
  @ApiProperty({ required: false, description: 'Present when the call saved the book.' }) message?: string;
  @ApiProperty({ type: BookResponse }) data: BookResponse;
}
