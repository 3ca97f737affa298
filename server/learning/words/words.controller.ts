import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Post,
  Query,
  StreamableFile,
  UseGuards,
} from '@nestjs/common';
import { ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import { CurrentUser } from '../../accounts/auth/auth.decorators';
import { IdParam } from '../../platform/common/id-param';
import type { User } from '../../accounts/users/user.entity';
import { ErrorAnswer } from '../../platform/common/error-answer';
import { AnkiExport } from './anki-export';
import { AnkiExportSlots } from './anki-export-slots';
import {
  SaveWordDto,
  WordAnswer,
  WordBooksAnswer,
  WordDeletedAnswer,
  WordListAnswer,
  WordsExportQuery,
  exportLanguages,
  WordRestoredAnswer,
  WordsQuery,
} from './words.dto';
import { WordsService } from './words.service';
import { WordTrash } from './word-trash';

const csvFile = (csv: string) =>
  new StreamableFile(Buffer.from(csv, 'utf8'), {
    type: 'text/csv; charset=utf-8',
    disposition: 'attachment; filename="lingonovel-words.csv"',
  });

/** A member's saved words. */
@Controller('user/words')
export class WordsController {
  constructor(
    private readonly words: WordsService,
    private readonly anki: AnkiExport,
    private readonly trash: WordTrash,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: WordAnswer })
  save(@CurrentUser() user: User, @Body() dto: SaveWordDto) {
    return this.words.save(user, dto);
  }

  @Get()
  @ApiOkResponse({ type: WordListAnswer })
  list(@CurrentUser() user: User, @Query() query: WordsQuery) {
    return this.words.list(user, query);
  }

  /** Each format names its own type and file, so the CSV's headers never go out with the zip. */
  @Get('books')
  @ApiOkResponse({ type: WordBooksAnswer })
  books(@CurrentUser() user: User) {
    return this.words.books(user);
  }

  @Get('export')
  @UseGuards(AnkiExportSlots)
  @ErrorAnswer(
    429,
    "An Anki export of this member's is still running, or too many are: the Retry-After header says when to try again.",
  )
  @ApiProduces('text/csv', 'application/zip')
  @ApiOkResponse({
    description: 'A download: the CSV (`format=csv`, the default) or an Anki deck as a zip (`format=anki`).',
    content: {
      'text/csv': { schema: { type: 'string' } },
      'application/zip': { schema: { type: 'string', format: 'binary' } },
    },
  })
  export(@CurrentUser() user: User, @Query() query: WordsExportQuery) {
    const languages = exportLanguages(query);
    return query.format === 'anki'
      ? this.anki.zip(user, languages)
      : this.words.exportCsv(user, languages).then(csvFile);
  }

  @Delete(':id')
  @ApiOkResponse({ type: WordDeletedAnswer })
  remove(@CurrentUser() user: User, @IdParam() id: number) {
    return this.trash.remove(user, id);
  }

  @Post(':id/restore')
  @HttpCode(200)
  @ApiOkResponse({ type: WordRestoredAnswer })
  @ErrorAnswer(409, 'The member saved the same word again since deleting it.')
  restore(@CurrentUser() user: User, @IdParam() id: number) {
    return this.trash.restore(user, id);
  }
}
