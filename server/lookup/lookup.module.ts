import { Module } from '@nestjs/common';

/** The lookup of any word: glossary, form, lemmas, folded (docs/lookup.md). */
@Module({})
export class LookupModule {}
