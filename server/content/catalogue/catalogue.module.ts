import { Global, Module } from '@nestjs/common';
import { CatalogueService } from './catalogue.service';
import { GuestController } from './guest.controller';
import { CatalogueEvents } from './catalogue-events';
import { CatalogueBroadcast } from './catalogue-broadcast';
import { BooksRepository } from './repository/books.repository';
import { ChaptersRepository } from './repository/chapters.repository';
import { ChapterWordsRepository } from './repository/chapter-words.repository';
import { PhrasesRepository } from './repository/phrases.repository';
import { PhraseTranslationsRepository } from './repository/phrase-translations.repository';
import { Sitemaps } from './sitemap';
import { TranslationIndex } from './translation-index';

const REPOSITORIES = [
  BooksRepository,
  ChaptersRepository,
  ChapterWordsRepository,
  PhrasesRepository,
  PhraseTranslationsRepository,
];

/**
 * The catalogue: its repositories, the only writers of books, chapters, phrases and their translations and
 * where every module reads them (docs/architecture.md, "The catalogue's owner"); the public view; the change events;
 * which chapters have which translations (the translation index).
 */
@Global()
@Module({
  controllers: [GuestController],
  providers: [
    CatalogueService,
    CatalogueEvents,
    CatalogueBroadcast,
    Sitemaps,
    TranslationIndex,
    ...REPOSITORIES,
  ],
  exports: [CatalogueService, CatalogueEvents, Sitemaps, TranslationIndex, ...REPOSITORIES],
})
export class CatalogueModule {}
