import { Module } from '@nestjs/common';
import { BooksController } from './books.controller';
import { BooksService } from './books.service';
import { ChaptersController } from '../chapters/chapters.controller';
import { ChaptersService } from '../chapters/chapters.service';
import { PhrasesController } from '../phrases/phrases.controller';
import { PhrasesService } from '../phrases/phrases.service';

/** The administrators' catalogue: books, their chapters and their phrases (stored by catalogue/repository/). */
@Module({
  controllers: [BooksController, ChaptersController, PhrasesController],
  providers: [BooksService, ChaptersService, PhrasesService],
})
export class BooksModule {}
