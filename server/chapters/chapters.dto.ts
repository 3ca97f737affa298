import type { ChapterResponse } from './chapter-responses';
import { IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';
import { Field } from '../common/field';
import { ToInteger, Trim } from '../common/form-values';
import type { Chapter } from './chapter.entity';

const PositiveId = (label: string) =>
  Field(
    ToInteger(),
    IsNotEmpty({ message: `The ${label} field is required.` }),
    IsInt({ message: `The ${label} must be a whole number.` }),
    Min(1, { message: `The ${label} must be 1 or more.` }),
  );

/** A chapter's number, as chapters and reading progress take it. */
export const ChapterNumber = () =>
  Field(
    ToInteger(),
    IsNotEmpty({ message: 'The chapter number field is required.' }),
    IsInt({ message: 'The chapter number must be a whole number.' }),
    Min(1, { message: 'The chapter number must be 1 or more.' }),
    Max(100_000, { message: 'The chapter number must not be more than 100000.' }),
  );

export class BookIdQuery {
  @PositiveId('book id')
  book_id: number;
}

export class ChapterDto {
  @Field(
    Trim(),
    IsNotEmpty({ message: 'The title field is required.' }),
    IsString({ message: 'The title must be text.' }),
    MaxLength(200, { message: 'The title must not be longer than 200 characters.' }),
  )
  title: string;

  @ChapterNumber()
  chapter_no: number;

  @PositiveId('book id')
  book_id: number;
}

export { PositiveId };

export const toChapterResponse = (chapter: Chapter): ChapterResponse => ({
  id: chapter.id,
  book_id: chapter.bookId,
  title: chapter.title,
  chapter_no: chapter.chapterNo,
});
