import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { MessageAnswer } from '../common/answers';
import { AdminOnly } from '../auth/auth.decorators';
import { Uploads } from '../http/body/multipart.interceptor';
import { BOOK_UPLOADS, BookAnswer, BookListAnswer, CreateBookDto, UpdateBookDto } from './books.dto';
import { BooksService } from './books.service';

/** Book management. `POST book/{code}?_method=put` reaches `update` through the method override. */
@AdminOnly()
@Controller('admin/book')
export class BooksController {
  constructor(private readonly books: BooksService) {}

  @Get()
  @ApiOkResponse({ type: BookListAnswer })
  list() {
    return this.books.list();
  }

  @Get(':bookCode')
  @ApiOkResponse({ type: BookAnswer })
  get(@Param('bookCode') bookCode: string) {
    return this.books.get(bookCode);
  }

  @Post()
  @HttpCode(200)
  @Uploads(BOOK_UPLOADS)
  @ApiOkResponse({ type: BookAnswer })
  create(@Body() dto: CreateBookDto) {
    return this.books.create(dto);
  }

  @Put(':bookCode')
  @Uploads(BOOK_UPLOADS)
  @ApiOkResponse({ type: BookAnswer })
  update(@Param('bookCode') bookCode: string, @Body() dto: UpdateBookDto) {
    return this.books.update(bookCode, dto);
  }

  @Delete(':bookCode')
  @ApiOkResponse({ type: MessageAnswer })
  remove(@Param('bookCode') bookCode: string) {
    return this.books.remove(bookCode);
  }
}
