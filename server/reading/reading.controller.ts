import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { MaybeUser, OptionalAuth } from '../common/auth.decorators';
import type { User } from '../users/user.entity';
import { ReadingService } from './reading.service';

/** The reader's calls. Public, and they read the token when one comes: access is decided per chapter. */
@OptionalAuth()
@Controller('guest/book/:bookCode')
export class ReadingController {
  constructor(private readonly reading: ReadingService) {}

  @Get('chapters')
  chapters(@Param('bookCode') bookCode: string) {
    return this.reading.tableOfContents(bookCode).then((data) => ({ data }));
  }

  @Get('chapter/:chapterNo')
  chapter(
    @Param('bookCode') bookCode: string,
    @Param('chapterNo') chapterNo: string,
    @MaybeUser() user: User | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.reading.chapter(bookCode, chapterNo, user, res).then((data) => ({ data }));
  }
}
