import { Body, Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { MessageAnswer } from '../../platform/common/answers';
import { AdminOnly } from '../../accounts/auth/auth.decorators';
import { ErrorAnswer } from '../../platform/common/error-answer';
import { IdParam } from '../../platform/common/id-param';
import { Uploads } from '../../http/body/multipart.interceptor';
import { BUSY_MESSAGE } from './dictionary-claims';
import {
  CreateDictionaryDto,
  DICTIONARY_UPLOAD_OPTIONS,
  DICTIONARY_UPLOADS,
  DictionaryAnswer,
  DictionaryListAnswer,
  ReplaceDictionaryDto,
} from './dictionaries.dto';
import { DictionariesService } from './dictionaries.service';

const FILES =
  'multipart `files` (up to 4, 100 MB each, 200 MB in all): dictd `.index` + `.dict` or `.dict.dz`; ' +
  'StarDict `.ifo`, `.idx`, `.dict` or `.dict.dz` and an optional `.syn`; or one TSV or CSV of headword, ' +
  'definition and an optional part of speech. A broken file is a 422 whose `errors.files` names the file ' +
  'and the line or offset; nothing of it is kept.';

/** Bilingual dictionaries for lookups (docs/dictionaries.md). */
@AdminOnly()
@Controller('admin/dictionary')
export class DictionariesController {
  constructor(private readonly dictionaries: DictionariesService) {}

  @Get()
  @ApiOperation({ summary: 'The dictionaries, by language pair (imports not finished are not listed)' })
  @ApiOkResponse({ type: DictionaryListAnswer })
  list() {
    return this.dictionaries.list();
  }

  @Post()
  @Uploads(DICTIONARY_UPLOADS, DICTIONARY_UPLOAD_OPTIONS)
  @ApiOperation({
    summary: 'Imports a dictionary',
    description: `${FILES} The name, licence and attribution given override the file's; the name falls back to the file's, then to the file name.`,
  })
  @ApiCreatedResponse({ type: DictionaryAnswer })
  create(@Body() dto: CreateDictionaryDto) {
    return this.dictionaries.create(dto);
  }

  @Put(':id')
  @Uploads(DICTIONARY_UPLOADS, DICTIONARY_UPLOAD_OPTIONS)
  @ApiOperation({
    summary: "Replaces a dictionary's entries with new files (the id stays)",
    description: `${FILES} Lookups see the old entries until the new ones are all in. Fields not given keep the file's value, else the dictionary's.`,
  })
  @ApiOkResponse({ type: DictionaryAnswer })
  @ErrorAnswer(409, BUSY_MESSAGE)
  replace(@IdParam() id: number, @Body() dto: ReplaceDictionaryDto) {
    return this.dictionaries.replace(id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deletes a dictionary and its entries' })
  @ApiOkResponse({ type: MessageAnswer })
  @ErrorAnswer(409, BUSY_MESSAGE)
  remove(@IdParam() id: number) {
    return this.dictionaries.remove(id);
  }
}
