import { ApiProperty } from '@nestjs/swagger';
import { BookBrowseMeta, PublicBook } from '../../content/catalogue/catalogue.service';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { Field } from '../../platform/common/field';
import { Composed, ToInteger, Trim } from '../../platform/common/form-values';
import { LanguageTag } from '../../platform/common/language-field';
import { MAX_FORM } from '../../platform/common/running-words';
import { OptionalDateTime, SENT_LATER_MAX_AGE_DAYS } from '../../platform/common/sent-later';

/** What a member may say of a word: they know it, or not yet (docs/word-status.md). */
export const SETTABLE_STATUSES = ['known', 'new'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];
/** A word's status as the reader marks it: "new" is every word without another. */
export type WordStatus = 'known' | 'learning' | 'new';

/** The most books one coverage request asks about (a page of cards). */
export const MAX_COVERAGE_BOOKS = 100;

const CHAPTER_NO = [
  ToInteger(),
  IsInt({ message: 'The chapter number must be a whole number.' }),
  Min(1, { message: 'The chapter number must be 1 or more.' }),
  Max(2_147_483_647, { message: 'The chapter number is too large.' }),
];
const BOOK_CODE = [
  Trim(),
  IsNotEmpty({ message: 'The book_code field is required.' }),
  IsString({ message: 'The book code must be text.' }),
  MaxLength(200, { message: 'The book code must not be longer than 200 characters.' }),
];

export class SetWordStatusDto {
  /** The language of the word: its book's. */
  @Field(IsNotEmpty({ message: 'The lang field is required.' }), ...LanguageTag('lang'))
  lang: string;

  @Field(
    Trim(),
    Composed(),
    IsNotEmpty({ message: 'The word field is required.' }),
    IsString({ message: 'The word must be text.' }),
    MaxLength(MAX_FORM, { message: `The word must not be longer than ${MAX_FORM} characters.` }),
    ValidateBy(
      {
        name: 'hasLetter',
        validator: { validate: (value: unknown) => typeof value === 'string' && /\p{L}/u.test(value) },
      },
      { message: 'The word must hold a letter.' },
    ),
  )
  word: string;

  @Field(
    IsNotEmpty({ message: 'The status field is required.' }),
    IsIn(SETTABLE_STATUSES, { message: 'The status must be "known" or "new".' }),
  )
  status: SettableStatus;

  @OptionalDateTime(
    'The time of the status must be a date and time such as 2026-11-22T09:30:00Z.',
    `When the member said it, for statuses set offline and sent later. Without it, now; a time ahead of the server's clock is taken as now; more than ${SENT_LATER_MAX_AGE_DAYS} days ago is refused (422). A status set later than \`at\` is kept, and answered.`,
  )
  at?: string;
}

export class ChapterMarkDto {
  @Field(...BOOK_CODE)
  book_code: string;

  @Field(IsNotEmpty({ message: 'The chapter_no field is required.' }), ...CHAPTER_NO)
  chapter_no: number;
}

export class ChapterWordsQuery extends ChapterMarkDto {}

export class CoverageQuery {
  /** Book codes, comma-separated. */
  @Field(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string'
        ? [
            ...new Set(
              value
                .split(',')
                .map((code) => code.trim())
                .filter(Boolean),
            ),
          ]
        : value,
    ),
    ValidateBy(
      {
        name: 'bookCodes',
        validator: {
          validate: (value: unknown) =>
            Array.isArray(value) &&
            value.length > 0 &&
            value.length <= MAX_COVERAGE_BOOKS &&
            value.every((code) => typeof code === 'string' && code.length <= 200),
        },
      },
      { message: `The books field must list 1 to ${MAX_COVERAGE_BOOKS} book codes, separated by commas.` },
    ),
  )
  books: string[];
}

export class WordStatusResponse {
  @ApiProperty({
    description: 'The language as stored: the primary subtag of the one sent ("pt-BR" → "pt").',
  })
  lang: string;
  @ApiProperty({ description: 'The word as counted: composed (NFC), in lower case.' }) word: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The lemma the status is kept under, when the word forms give exactly one; else null.',
  })
  lemma: string | null;
  @ApiProperty({ enum: SETTABLE_STATUSES }) status: SettableStatus;
}

export class WordStatusAnswer {
  @ApiProperty({ type: WordStatusResponse }) data: WordStatusResponse;
}

export class ChapterMarkResponse {
  @ApiProperty({
    description: 'The id to undo it by (DELETE user/word-status/chapter/{id}); null when nothing changed.',
    type: 'integer',
    nullable: true,
  })
  id: number | null;
  @ApiProperty({ description: 'How many words became known.' }) changed: number;
}

export class ChapterMarkAnswer {
  @ApiProperty({ type: ChapterMarkResponse }) data: ChapterMarkResponse;
}

export class UndoneResponse {
  @ApiProperty({ description: 'How many words went back to new.' }) changed: number;
}

export class UndoneAnswer {
  @ApiProperty({ type: UndoneResponse }) data: UndoneResponse;
}

export class ChapterWordsResponse {
  @ApiProperty() lang: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', enum: ['known', 'learning'] },
    description:
      'Each form of the chapter the member knows or is learning (lower case); a form not listed is new.',
  })
  words: Record<string, 'known' | 'learning'>;
}

export class ChapterWordsAnswer {
  @ApiProperty({ type: ChapterWordsResponse }) data: ChapterWordsResponse;
}

export class BookCoverageResponse {
  @ApiProperty({ description: 'The share of the book’s running words the member knows, from 0 to 1.' })
  known_share: number;
  @ApiProperty({ description: 'How many distinct words of the book the member does not know yet.' })
  unknown_words: number;
}

export class CoverageAnswer {
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/BookCoverageResponse' },
    description: 'By book code; a book that does not exist, or has no counted words, is left out.',
  })
  data: Record<string, BookCoverageResponse>;
}

export class MemberBook extends PublicBook {
  @ApiProperty({
    description:
      'The share of the book’s running words the member knows, from 0 to 1 (0: none, or not counted).',
  })
  known_share: number;
  @ApiProperty({
    description: 'How many distinct words of the book the member does not know yet (0: not counted).',
  })
  unknown_words: number;
}

export class MemberBooksMeta extends BookBrowseMeta {
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description:
      'With sort=coverage: when the order was computed from the member’s statuses (the oldest of their languages); null before any.',
  })
  coverage_as_of: string | null;
}

export class MemberBooksAnswer {
  @ApiProperty({ type: [MemberBook] }) data: MemberBook[];
  @ApiProperty({ type: MemberBooksMeta }) meta: MemberBooksMeta;
}
