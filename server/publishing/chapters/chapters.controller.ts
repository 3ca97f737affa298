import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { IdParam } from '../../platform/common/id-param';
import { ApiOkResponse } from '@nestjs/swagger';
import { AdminOnly } from '../../accounts/auth/auth.decorators';
import { MessageAnswer, PhraseOrderAnswer } from '../phrases/phrase-responses';
import { BookChaptersAnswer, ChapterAnswer, ChapterDetailAnswer } from './chapter-responses';
import { PhraseOrderDto } from '../phrases/phrases.dto';
import { PhrasesService } from '../phrases/phrases.service';
import { BookIdQuery, ChapterDto } from './chapters.dto';
import { ChaptersService } from './chapters.service';

@AdminOnly()
@Controller('admin/chapter')
export class ChaptersController {
  constructor(
    private readonly chapters: ChaptersService,
    private readonly phrases: PhrasesService,
  ) {}

  @Get()
  @ApiOkResponse({ type: BookChaptersAnswer })
  list(@Query() query: BookIdQuery) {
    return this.chapters.listForBook(query.book_id);
  }

  @Get(':id')
  @ApiOkResponse({ type: ChapterDetailAnswer })
  get(@IdParam() id: number) {
    return this.chapters.get(id);
  }

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: ChapterAnswer })
  create(@Body() dto: ChapterDto) {
    return this.chapters.create(dto);
  }

  @Put(':id')
  @ApiOkResponse({ type: ChapterAnswer })
  update(@IdParam() id: number, @Body() dto: ChapterDto) {
    return this.chapters.update(id, dto);
  }

  @Delete(':id')
  @ApiOkResponse({ type: MessageAnswer })
  remove(@IdParam() id: number) {
    return this.chapters.remove(id);
  }

  @Put(':id/phrase-order')
  @ApiOkResponse({ type: PhraseOrderAnswer })
  reorder(@IdParam() id: number, @Body() dto: PhraseOrderDto) {
    return this.phrases.reorder(id, dto.ids);
  }
}
