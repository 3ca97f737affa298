import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WordsModule } from '../words/words.module';
import { DictationAttempt } from './dictation-attempt.entity';
import { DictationService } from './dictation.service';
import { MarksService } from './marks.service';
import { PhraseMark } from './phrase-mark.entity';
import { PracticeController } from './practice.controller';

/** Practice on phrases (docs/practice.md): dictations and marks; phrase cards are the words module's. */
@Module({
  imports: [TypeOrmModule.forFeature([DictationAttempt, PhraseMark]), WordsModule],
  controllers: [PracticeController],
  providers: [DictationService, MarksService],
})
export class PracticeModule {}
