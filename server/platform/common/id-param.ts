import { NotFoundException, Param, ParseIntPipe } from '@nestjs/common';

/** A numeric id in the path; anything else names nothing, so it is a 404 like an unknown id. */
export const IdParam = (name = 'id') =>
  Param(
    name,
    new ParseIntPipe({ exceptionFactory: () => new NotFoundException('Not found.') }),
    // Ids are 32-bit integers in the database: a larger number names nothing (PostgreSQL would refuse it).
    {
      transform: (id: number) => {
        if (id < 1 || id > 2_147_483_647) throw new NotFoundException('Not found.');
        return id;
      },
    },
  );
