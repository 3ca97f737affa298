import { NotFoundException, Param, ParseIntPipe } from '@nestjs/common';

/** A numeric id in the path; anything else names nothing, so it is a 404 like an unknown id. */
export const IdParam = (name = 'id') =>
  Param(name, new ParseIntPipe({ exceptionFactory: () => new NotFoundException('Not found.') }));
