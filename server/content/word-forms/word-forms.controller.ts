import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminOnly } from '../../accounts/auth/auth.decorators';
import { MessageAnswer } from '../../platform/common/answers';
import { ErrorAnswer } from '../../platform/common/error-answer';
import { Uploads } from '../../http/body/multipart.interceptor';
import {
  MAX_FORMS,
  WORD_FORM_OPTIONS,
  WORD_FORM_UPLOADS,
  WordFormSetsAnswer,
  WordFormsImportAnswer,
  WordFormsImportDto,
} from './word-forms.dto';
import { WordFormsService } from './word-forms.service';

/** Each inflected form of a language to its lemmas, from Hunspell or a list (docs/word-forms.md). */
@AdminOnly()
@Controller('admin/word-forms')
export class WordFormsController {
  constructor(private readonly forms: WordFormsService) {}

  @Get()
  @ApiOperation({ summary: 'The sets of word forms: one per language and origin (hunspell, list)' })
  @ApiOkResponse({ type: WordFormSetsAnswer })
  list() {
    return this.forms.list();
  }

  @Post()
  @HttpCode(200)
  @Uploads(WORD_FORM_UPLOADS, WORD_FORM_OPTIONS)
  @ApiOperation({
    summary:
      "Replaces a language's Hunspell forms (files: .aff and .dic) or its list of forms (one .tsv or .csv)",
    description: `The Hunspell dictionary is expanded into every form of each stem; a list gives form and lemma per line. The answer counts the set just imported. At most ${MAX_FORMS.toLocaleString('en')} forms; .aff 2 MB, .dic 20 MB, list 50 MB. A broken file is a 422 naming the file and the line, and the set in place stays.`,
  })
  @ApiOkResponse({ type: WordFormsImportAnswer })
  @ErrorAnswer(409, 'A newer import of the same set finished first.')
  import(@Body() dto: WordFormsImportDto) {
    return this.forms.import(dto);
  }

  @Delete(':lang/:origin')
  @ApiOkResponse({ type: MessageAnswer })
  remove(@Param('lang') lang: string, @Param('origin') origin: string) {
    return this.forms.remove(lang, origin);
  }
}
