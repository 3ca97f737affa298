import { Module } from '@nestjs/common';
import { DictionaryEntries } from './dictionary-entries';
import { DictionaryMeanings } from './dictionary-meanings';

/**
 * The lookup's reads of the dictionaries, apart from its route: saving a word checks a dictionary meaning
 * with them (words/), and the lookup's route needs the words module's access rule, so one module holding
 * both would make a cycle.
 */
@Module({
  providers: [DictionaryEntries, DictionaryMeanings],
  exports: [DictionaryEntries, DictionaryMeanings],
})
export class LookupReadsModule {}
