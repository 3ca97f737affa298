import { Module } from '@nestjs/common';
import { DictionariesController } from './dictionaries.controller';
import { DictionariesRepository } from './dictionaries.repository';
import { DictionariesService } from './dictionaries.service';
import { DictionaryClaims } from './dictionary-claims';
import { DictionarySweep } from './dictionary-sweep';

/** Bilingual dictionaries: their import, replacement and deletion by administrators (docs/dictionaries.md). */
@Module({
  controllers: [DictionariesController],
  providers: [DictionariesService, DictionariesRepository, DictionaryClaims, DictionarySweep],
  exports: [DictionariesRepository],
})
export class DictionariesModule {}
