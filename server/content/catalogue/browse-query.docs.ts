import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { DIFFICULTIES } from './book-levels';
import { MAX_PER_PAGE, MAX_QUERY_LENGTH, SORTS } from './browse-query';

/**
 * The OpenAPI description of the browse parameters (browse-query.ts), for every route that reads them with
 * parseBrowseQuery: GET guest/books and GET admin/book. Only `per_page`'s default differs between them.
 */
export function ApiBrowseQuery({ defaultPerPage }: { defaultPerPage: number }) {
  return applyDecorators(
    ApiQuery({ name: 'lang', required: false, description: 'A language tag (es, pt-pt) or none.' }),
    ApiQuery({ name: 'cefr', required: false, description: 'A1, A2, B1, B2, C1, C2 or none.' }),
    ApiQuery({ name: 'difficulty', required: false, enum: DIFFICULTIES }),
    ApiQuery({
      name: 'q',
      required: false,
      description: `Words to find at the start of words of the title, author, narrator or description, accents and case ignored (at most ${MAX_QUERY_LENGTH} characters).`,
    }),
    ApiQuery({
      name: 'sort',
      required: false,
      enum: SORTS,
      description: 'newest (the default), title or shortest.',
    }),
    ApiQuery({ name: 'page', required: false, type: 'integer', description: 'From 1 (the default).' }),
    ApiQuery({
      name: 'per_page',
      required: false,
      type: 'integer',
      description: `1 to ${MAX_PER_PAGE}; ${defaultPerPage} by default.`,
    }),
  );
}
