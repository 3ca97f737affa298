import { Module } from '@nestjs/common';
import { WordFormsController } from './word-forms.controller';
import { WordFormsService } from './word-forms.service';

/** Word forms: each inflected form of a language to its lemmas, from Hunspell or a list (docs/word-forms.md). */
@Module({ controllers: [WordFormsController], providers: [WordFormsService], exports: [WordFormsService] })
export class WordFormsModule {}
