import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Book } from './book.entity';
import { Chapter } from '../chapters/chapter.entity';
import { Phrase } from '../phrases/phrase.entity';
import { BooksController } from './books.controller';
import { BooksService } from './books.service';
import { ChaptersController } from '../chapters/chapters.controller';
import { ChaptersService } from '../chapters/chapters.service';
import { PhrasesController } from '../phrases/phrases.controller';
import { PhrasesService } from '../phrases/phrases.service';

/** The administrators' catalogue: books, their chapters and their phrases. */
@Module({
  imports: [TypeOrmModule.forFeature([Book, Chapter, Phrase])],
  controllers: [BooksController, ChaptersController, PhrasesController],
  providers: [BooksService, ChaptersService, PhrasesService],
})
export class BooksModule {}
