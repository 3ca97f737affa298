import { Controller, Get, Param } from '@nestjs/common';
import { Public } from '../common/auth.decorators';
import { CatalogueService } from './catalogue.service';

/** SPEC.md's guest endpoints: the public catalogue, without authentication. */
@Public()
@Controller('guest')
export class GuestController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get('list-book')
  async list() {
    return { data: await this.catalogue.listBooks() };
  }

  @Get('book-detail/:bookCode')
  async detail(@Param('bookCode') bookCode: string) {
    return { data: await this.catalogue.getBook(bookCode) };
  }
}
