import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators';
import { CatalogueService, PublicBookAnswer, PublicBookListAnswer } from './catalogue.service';

/** The guest calls (docs/product.md section 7): the public catalogue, without authentication. */
@Public()
@Controller('guest')
export class GuestController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get('list-book')
  @ApiOkResponse({ type: PublicBookListAnswer })
  async list(): Promise<PublicBookListAnswer> {
    return { data: await this.catalogue.listBooks() };
  }

  @Get('book-detail/:bookCode')
  @ApiOkResponse({ type: PublicBookAnswer })
  async detail(@Param('bookCode') bookCode: string): Promise<PublicBookAnswer> {
    return { data: await this.catalogue.getBook(bookCode) };
  }
}
