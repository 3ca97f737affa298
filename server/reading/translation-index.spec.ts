import { Logger } from '@nestjs/common';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import type { PhraseTranslationsRepository } from '../catalogue/repository/phrase-translations.repository';
import { TranslationIndex } from './translation-index';

/** A repository whose reads the test answers one by one. */
function fakeRepository() {
  const pending: Array<{ resolve: (rows: Map<string, string[]>) => void; reject: (error: Error) => void }> =
    [];
  const repository = {
    languagesByChapter: jest.fn(
      () => new Promise<Map<string, string[]>>((resolve, reject) => pending.push({ resolve, reject })),
    ),
  };
  return { repository: repository as unknown as PhraseTranslationsRepository, pending };
}

describe(TranslationIndex.name, () => {
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));

  it('cannot tell before its first refresh, nor after a failed one', async () => {
    const { repository, pending } = fakeRepository();
    const index = new TranslationIndex(repository, new CatalogueEvents());
    expect(index.languagesOf('book', '1')).toBeNull();
    const first = index.refresh();
    pending[0].resolve(new Map([['book/1', ['de', 'en']]]));
    await first;
    expect(index.languagesOf('book', '1')).toEqual(['de', 'en']);
    expect(index.languagesOf('book', '2')).toEqual([]);
    const second = index.follow();
    pending[1].reject(new Error('connection refused'));
    await second;
    expect(index.languagesOf('book', '1')).toBeNull();
    index.onModuleDestroy();
  });

  it('follows catalogue changes; of two overlapping refreshes, the later one started decides', async () => {
    const { repository, pending } = fakeRepository();
    const events = new CatalogueEvents();
    const index = new TranslationIndex(repository, events);
    const older = events.apply(['book']);
    const newer = index.refresh();
    pending[1].resolve(new Map([['book/1', ['en', 'fr']]]));
    await newer;
    pending[0].resolve(new Map([['book/1', ['en']]]));
    await older;
    expect(index.languagesOf('book', '1')).toEqual(['en', 'fr']);
  });
});
