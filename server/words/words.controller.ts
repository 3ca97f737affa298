import { Body, Controller, Delete, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { CurrentUser } from '../common/auth.decorators';
import { IdParam } from '../common/id-param';
import type { User } from '../users/user.entity';
import { SaveWordDto, WordsQuery } from './words.dto';
import { WordsService } from './words.service';

/** A member's saved words. */
@Controller('user/words')
export class WordsController {
  constructor(private readonly words: WordsService) {}

  @Post()
  @HttpCode(200)
  save(@CurrentUser() user: User, @Body() dto: SaveWordDto) {
    return this.words.save(user, dto);
  }

  @Get()
  list(@CurrentUser() user: User, @Query() query: WordsQuery) {
    return this.words.list(user, query);
  }

  @Get('export')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="lingonovel-words.csv"')
  export(@CurrentUser() user: User) {
    return this.words.exportCsv(user);
  }

  @Delete(':id')
  remove(@CurrentUser() user: User, @IdParam() id: number) {
    return this.words.remove(user, id);
  }
}
