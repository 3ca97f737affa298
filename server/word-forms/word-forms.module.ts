import { Module } from '@nestjs/common';

/** Word forms: each inflected form of a language to its lemmas, from Hunspell or a list (docs/word-forms.md). */
@Module({})
export class WordFormsModule {}
