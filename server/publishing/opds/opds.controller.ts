import { applyDecorators, Controller, Get, Header, Param, Query, type StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ReadingAppAuth } from '../../accounts/app-passwords/reading-app-auth';
import { MaybeUser } from '../../accounts/auth/auth.decorators';
import { ErrorAnswer } from '../../platform/common/error-answer';
import type { User } from '../../accounts/users/user.entity';
import { ACQUISITION_TYPE, NAVIGATION_TYPE, OPENSEARCH_TYPE } from './feed-writer';
import { OpdsCovers } from './opds-covers';
import { OpdsService } from './opds.service';

const xml = (type: string, description: string) =>
  applyDecorators(
    Header('Content-Type', type),
    ApiProduces(type),
    ApiOkResponse({ description, content: { [type]: { schema: { type: 'string' } } } }),
  );
const Navigation = (description: string) => xml(NAVIGATION_TYPE, description);
/** A paginated feed of books: `page` as in GET guest/books, 24 books a page. */
const Acquisition = (description: string) =>
  applyDecorators(
    xml(ACQUISITION_TYPE, description),
    ApiQuery({ name: 'page', required: false, type: 'integer', description: 'From 1 (the default).' }),
    ErrorAnswer(404, 'A page past the last one.'),
    ErrorAnswer(422, 'A page that is not a whole number from 1 to 10000.'),
  );

/**
 * The OPDS 1.2 catalogue for reading apps (docs/formats.md "OPDS 1.2"): a visitor's acquisition links are
 * samples; with a bearer token or HTTP Basic and an app password they are what that member may read.
 * `Cache-Control: private, no-store` on every answer, covers too (set before routing, http/create-app.ts):
 * a new cover keeps its URL. Outside the page-cached guest/ prefix. Errors are problem details
 * (`application/problem+json`, http/problem-details.ts, mounted on the path like the Cache-Control).
 */
@ApiTags('OPDS')
@ReadingAppAuth()
@ErrorAnswer(401, 'Wrong HTTP Basic credentials (with `WWW-Authenticate: Basic`).')
@ErrorAnswer(429, 'Too many failed sign-ins for this account or address: see Retry-After.')
@Controller('opds')
export class OpdsController {
  constructor(
    private readonly opds: OpdsService,
    private readonly covers: OpdsCovers,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The OPDS catalogue root: by language, by level, new, all books' })
  @Navigation('OPDS 1.2 navigation feed.')
  root(): Promise<StreamableFile> {
    return this.opds.root();
  }

  @Get('opensearch.xml')
  @ApiOperation({ summary: 'The OpenSearch description of the OPDS search (template with {searchTerms})' })
  @xml(OPENSEARCH_TYPE, 'OpenSearch 1.1 description document.')
  openSearch(): StreamableFile {
    return this.opds.openSearch();
  }

  @Get('languages')
  @ApiOperation({ summary: 'OPDS: the languages that have books' })
  @Navigation('OPDS 1.2 navigation feed, one entry per language.')
  languages(): Promise<StreamableFile> {
    return this.opds.languages();
  }

  @Get('languages/:lang')
  @ApiOperation({ summary: "OPDS: a language's books, newest first" })
  @ApiParam({ name: 'lang', description: 'A language tag in lower case (es, pt-pt), or none.' })
  @ErrorAnswer(404, 'Not a language, or a language without books, or a page past the last.')
  @Acquisition('OPDS 1.2 acquisition feed.')
  language(
    @Param('lang') lang: string,
    @Query() query: Record<string, unknown>,
    @MaybeUser() user: User | undefined,
  ): Promise<StreamableFile> {
    return this.opds.language(lang, query, user);
  }

  @Get('levels')
  @ApiOperation({ summary: 'OPDS: the CEFR levels that have books' })
  @Navigation('OPDS 1.2 navigation feed, one entry per level.')
  levels(): Promise<StreamableFile> {
    return this.opds.levels();
  }

  @Get('levels/:cefr')
  @ApiOperation({ summary: "OPDS: a CEFR level's books, newest first" })
  @ApiParam({ name: 'cefr', description: 'A1, A2, B1, B2, C1, C2, or none.' })
  @ErrorAnswer(404, 'Not a level, or a level without books, or a page past the last.')
  @Acquisition('OPDS 1.2 acquisition feed.')
  level(
    @Param('cefr') cefr: string,
    @Query() query: Record<string, unknown>,
    @MaybeUser() user: User | undefined,
  ): Promise<StreamableFile> {
    return this.opds.level(cefr, query, user);
  }

  @Get('books')
  @ApiOperation({ summary: 'OPDS: every book, by title' })
  @Acquisition('OPDS 1.2 acquisition feed.')
  allBooks(
    @Query() query: Record<string, unknown>,
    @MaybeUser() user: User | undefined,
  ): Promise<StreamableFile> {
    return this.opds.allBooks(query, user);
  }

  @Get('new')
  @ApiOperation({ summary: 'OPDS: every book, newest first' })
  @Acquisition('OPDS 1.2 acquisition feed.')
  newest(
    @Query() query: Record<string, unknown>,
    @MaybeUser() user: User | undefined,
  ): Promise<StreamableFile> {
    return this.opds.newest(query, user);
  }

  @Get('search')
  @ApiOperation({ summary: 'OPDS: books whose title, author, narrator or description has these words' })
  @ApiQuery({
    name: 'q',
    required: true,
    description: 'The words, as in GET guest/books (at most 200 characters).',
  })
  @Acquisition('OPDS 1.2 acquisition feed; empty when nothing matches.')
  search(
    @Query() query: Record<string, unknown>,
    @MaybeUser() user: User | undefined,
  ): Promise<StreamableFile> {
    return this.opds.search(query, user);
  }

  @Get('covers/:bookCode/:width.jpg')
  @ApiOperation({ summary: "OPDS: a book's cover as a JPEG (the feeds' image and thumbnail links)" })
  @ApiParam({ name: 'bookCode', description: 'The book code.' })
  @ApiParam({ name: 'width', enum: ['640', '320'], description: 'The width in pixels (2:3 shape).' })
  @ApiProduces('image/jpeg')
  @ApiOkResponse({
    description: 'The cover, JPEG.',
    content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
  })
  @ErrorAnswer(404, 'No such book or width, or the book has no cover file.')
  cover(@Param('bookCode') bookCode: string, @Param('width') width: string): Promise<StreamableFile> {
    return this.covers.jpeg(bookCode, width);
  }
}
