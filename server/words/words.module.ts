import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Phrase } from '../phrases/phrase.entity';
import { SavedWord } from './saved-word.entity';
import { WordsController } from './words.controller';
import { WordsService } from './words.service';

/** Words: saved from the reader's glossaries, reviewed later with the narrator's voice. */
@Module({
  imports: [TypeOrmModule.forFeature([SavedWord, Phrase])],
  controllers: [WordsController],
  providers: [WordsService],
})
export class WordsModule {}
