import { Module } from '@nestjs/common';

/** Bilingual dictionaries: their import, replacement and deletion by administrators (docs/dictionaries.md). */
@Module({})
export class DictionariesModule {}
