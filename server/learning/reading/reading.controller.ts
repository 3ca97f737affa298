import { ErrorAnswer } from '../../platform/common/error-answer';
import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiQuery } from '@nestjs/swagger';
import { MaybeUser, OptionalAuth } from '../../accounts/auth/auth.decorators';
import type { User } from '../../accounts/users/user.entity';
import { ReaderChapterAnswer, TableOfContentsAnswer } from './reading.dto';
import { ReadingService } from './reading.service';
import { AskedLanguagesPipe, MAX_ASKED_LANGUAGES } from '../../content/catalogue/translations-query';

const CACHE_CONTROL = { private: 'private, no-store', 'no-store': 'no-store' } as const;

/** The reader's calls. Public, and they read the token when one comes: access is decided per chapter. */
@OptionalAuth()
@Controller('guest/book/:bookCode')
export class ReadingController {
  constructor(private readonly reading: ReadingService) {}

  @Get('chapters')
  @ApiOkResponse({ type: TableOfContentsAnswer })
  chapters(@Param('bookCode') bookCode: string): Promise<TableOfContentsAnswer> {
    return this.reading.tableOfContents(bookCode).then((data) => ({ data }));
  }

  @ErrorAnswer(403, 'A locked chapter: the reader needs Premium Plus (or to sign in first).')
  @Get('chapter/:chapterNo')
  @ApiQuery({
    name: 'translations',
    required: false,
    example: 'en,pt-BR',
    description: `The languages (BCP 47, at most ${MAX_ASKED_LANGUAGES}, comma-separated) whose translations each phrase carries.`,
  })
  @ApiOkResponse({ type: ReaderChapterAnswer })
  async chapter(
    @Param('bookCode') bookCode: string,
    @Param('chapterNo') chapterNo: string,
    @Query('translations', AskedLanguagesPipe) asked: string[],
    @MaybeUser() user: User | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReaderChapterAnswer> {
    const { chapter, caching } = await this.reading.chapter(bookCode, chapterNo, asked, user);
    // A free chapter's answer is the same for everyone (the page cache may keep it); any other is not.
    if (caching !== 'public') res.setHeader('Cache-Control', CACHE_CONTROL[caching]);
    return { data: chapter };
  }
}
