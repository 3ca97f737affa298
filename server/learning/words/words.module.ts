import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LookupReadsModule } from '../lookup/lookup-reads.module';
import { AnkiExport } from './anki-export';
import { AnkiExportSlots } from './anki-export-slots';
import { DeletedWord } from './deleted-word.entity';
import { PhraseCards } from './phrase-cards';
import { ReviewLog } from './review-log.entity';
import { ReviewController } from './review.controller';
import { ReviewService } from './review.service';
import { SavedWord } from './saved-word.entity';
import { WordsController } from './words.controller';
import { WordsService } from './words.service';
import { WordTrash } from './word-trash';
import { FsrsOptimiser } from './fsrs-optimiser';
import { OwnParameters } from './own-parameters';

/** Words and phrase cards: saved from the reader, reviewed later with the narrator's voice. */
@Module({
  // LookupReadsModule: a dictionary meaning is checked against the dictionaries before it is saved.
  imports: [TypeOrmModule.forFeature([SavedWord, ReviewLog, DeletedWord]), LookupReadsModule],
  controllers: [WordsController, ReviewController],
  providers: [
    WordsService,
    ReviewService,
    AnkiExport,
    AnkiExportSlots,
    WordTrash,
    PhraseCards,
    OwnParameters,
    FsrsOptimiser,
  ],
  // Practice's marks make phrase cards through it (this module stays the one writer of saved_words), and
  // its calls check access to a phrase as saving a word does.
  exports: [PhraseCards],
})
export class WordsModule {}
