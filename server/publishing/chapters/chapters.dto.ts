import type { ChapterResponse } from './chapter-responses';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Field } from '../../platform/common/field';
import { Trim } from '../../platform/common/form-values';
import { ChapterNumber, PositiveId } from '../../platform/common/number-fields';
import type { Chapter } from '../../content/catalogue/entities/chapter.entity';

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

export const toChapterResponse = (chapter: Chapter): ChapterResponse => ({
  id: chapter.id,
  book_id: chapter.bookId,
  title: chapter.title,
  chapter_no: chapter.chapterNo,
});
