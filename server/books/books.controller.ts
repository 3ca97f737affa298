import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { AdminOnly } from '../common/auth.decorators';
import { Uploads } from '../common/multipart.interceptor';
import { BOOK_UPLOADS, CreateBookDto, UpdateBookDto } from './books.dto';
import { BooksService } from './books.service';

/** Book management. `POST book/{code}?_method=put` reaches `update` through the method override. */
@AdminOnly()
@Controller('admin/book')
export class BooksController {
  constructor(private readonly books: BooksService) {}

  @Get()
  list() {
    return this.books.list();
  }

  @Get(':bookCode')
  get(@Param('bookCode') bookCode: string) {
    return this.books.get(bookCode);
  }

  @Post()
  @HttpCode(200)
  @Uploads(BOOK_UPLOADS)
  create(@Body() dto: CreateBookDto) {
    return this.books.create(dto);
  }

  @Put(':bookCode')
  @Uploads(BOOK_UPLOADS)
  update(@Param('bookCode') bookCode: string, @Body() dto: UpdateBookDto) {
    return this.books.update(bookCode, dto);
  }

  @Delete(':bookCode')
  remove(@Param('bookCode') bookCode: string) {
    return this.books.remove(bookCode);
  }
}
