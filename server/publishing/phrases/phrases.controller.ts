import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { AdminOnly } from '../../accounts/auth/auth.decorators';
import { ChapterPhrasesAnswer, MessageAnswer, PhraseAnswer } from './phrase-responses';
import { IdParam } from '../../platform/common/id-param';
import { Uploads } from '../../http/body/multipart.interceptor';
import { ChapterIdQuery, CreatePhraseDto, PHRASE_UPLOADS, UpdatePhraseDto } from './phrases.dto';
import { PhrasesService } from './phrases.service';

@AdminOnly()
@Controller('admin/phrase')
export class PhrasesController {
  constructor(private readonly phrases: PhrasesService) {}

  @Get()
  @ApiOkResponse({ type: ChapterPhrasesAnswer })
  list(@Query() query: ChapterIdQuery) {
    return this.phrases.listForChapter(query.chapter_id);
  }

  @Get(':id')
  @ApiOkResponse({ type: PhraseAnswer })
  get(@IdParam() id: number) {
    return this.phrases.get(id);
  }

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: PhraseAnswer })
  @Uploads(PHRASE_UPLOADS)
  create(@Body() dto: CreatePhraseDto) {
    return this.phrases.create(dto);
  }

  @Put(':id')
  @ApiOkResponse({ type: PhraseAnswer })
  @Uploads(PHRASE_UPLOADS)
  update(@IdParam() id: number, @Body() dto: UpdatePhraseDto) {
    return this.phrases.update(id, dto);
  }

  @Delete(':id')
  @ApiOkResponse({ type: MessageAnswer })
  remove(@IdParam() id: number) {
    return this.phrases.remove(id);
  }
}
