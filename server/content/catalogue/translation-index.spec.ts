import { Logger } from '@nestjs/common';
import { CatalogueEvents } from './catalogue-events';
import type { PhraseTranslationsRepository } from './repository/phrase-translations.repository';
import { TranslationIndex } from './translation-index';

type ByBook = Map<string, Map<string, string[]>>;

/** A repository whose reads the test answers one by one, recording which books each read asked for. */
function fakeRepository() {
  const pending: Array<{
    books: string[] | undefined;
    resolve: (rows: ByBook) => void;
    reject: (error: Error) => void;
  }> = [];
  const repository = {
    languagesByBook: jest.fn(
      (books?: string[]) =>
        new Promise<ByBook>((resolve, reject) => pending.push({ books, resolve, reject })),
    ),
  };
  return { repository: repository as unknown as PhraseTranslationsRepository, pending };
}

const books = (entries: Record<string, Record<string, string[]>>): ByBook =>
  new Map(Object.entries(entries).map(([book, chapters]) => [book, new Map(Object.entries(chapters))]));

/** An index that has read everything once: book a/1 in en, b/1 in de. */
async function readIndex() {
  const { repository, pending } = fakeRepository();
  const events = new CatalogueEvents();
  const index = new TranslationIndex(repository, events);
  const first = index.refresh();
  pending[0].resolve(books({ a: { '1': ['en'] }, b: { '1': ['de'] } }));
  await first;
  return { index, events, pending };
}

describe(TranslationIndex.name, () => {
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));

  it('cannot tell before its first refresh, nor after a failed one', async () => {
    const { repository, pending } = fakeRepository();
    const index = new TranslationIndex(repository, new CatalogueEvents());
    expect(index.languagesOf('book', '1')).toBeNull();
    const first = index.refresh();
    pending[0].resolve(books({ book: { '1': ['de', 'en'] } }));
    await first;
    expect(index.languagesOf('book', '1')).toEqual(['de', 'en']);
    expect(index.languagesOf('book', '2')).toEqual([]);
    expect(index.languagesOf('other', '1')).toEqual([]);
    const second = index.follow();
    pending[1].reject(new Error('connection refused'));
    await second;
    expect(index.languagesOf('book', '1')).toBeNull();
    index.onModuleDestroy();
  });

  it('reads again only the books a change names, leaving the others as they were', async () => {
    const { index, events, pending } = await readIndex();
    const change = events.changed('a');
    expect(pending[1].books).toEqual(['a']);
    pending[1].resolve(books({ a: { '1': ['en', 'fr'], '2': ['en'] } }));
    await change;
    expect(index.languagesOf('a', '1')).toEqual(['en', 'fr']);
    expect(index.languagesOf('a', '2')).toEqual(['en']);
    expect(index.languagesOf('b', '1')).toEqual(['de']);
    // A book that has no translations left (or was deleted) is read as nothing.
    const removed = events.changed('b');
    pending[2].resolve(new Map());
    await removed;
    expect(index.languagesOf('b', '1')).toEqual([]);
    expect(index.languagesOf('a', '1')).toEqual(['en', 'fr']);
    // A change naming no book (another instance's reconnect) reads everything.
    const everything = events.apply([]);
    expect(pending[3].books).toBeUndefined();
    pending[3].resolve(books({ c: { '3': ['ja'] } }));
    await everything;
    expect([index.languagesOf('a', '1'), index.languagesOf('c', '3')]).toEqual([[], ['ja']]);
  });

  it('after a failed read of one book, reads everything before telling again', async () => {
    const { index, events, pending } = await readIndex();
    const failing = events.changed('a');
    pending[1].reject(new Error('connection reset'));
    await failing;
    expect(index.languagesOf('b', '1')).toBeNull();
    // Whatever the next change names, the index may have missed any change: it reads every book.
    const next = events.changed('b');
    expect(pending[2].books).toBeUndefined();
    pending[2].resolve(books({ a: { '1': ['it'] } }));
    await next;
    expect([index.languagesOf('a', '1'), index.languagesOf('b', '1')]).toEqual([['it'], []]);
    index.onModuleDestroy();
  });

  it('of overlapping reads, the one started later decides, book by book', async () => {
    const { index, events, pending } = await readIndex();
    // A full read, then one of book a, started in that order, ending in the other.
    const full = events.apply([]);
    const ofA = events.changed('a');
    pending[2].resolve(books({ a: { '1': ['en', 'fr'] } }));
    await ofA;
    pending[1].resolve(books({ a: { '1': ['en'] }, b: { '1': ['de', 'nl'] } }));
    await full;
    expect(index.languagesOf('a', '1')).toEqual(['en', 'fr']);
    expect(index.languagesOf('b', '1')).toEqual(['de', 'nl']);
    // Two full reads ending out of order: the older one is dropped.
    const older = index.refresh();
    const newer = index.refresh();
    pending[4].resolve(books({ a: { '1': ['ko'] } }));
    await newer;
    pending[3].resolve(books({ a: { '1': ['en'] } }));
    await older;
    expect(index.languagesOf('a', '1')).toEqual(['ko']);
    // A read that fails after a later full read worked missed nothing that read did not see.
    const late = index.refresh(['a']);
    const after = index.refresh();
    pending[6].resolve(books({ a: { '1': ['ko'] } }));
    await after;
    pending[5].reject(new Error('timeout'));
    await expect(late).rejects.toThrow('timeout');
    expect(index.languagesOf('a', '1')).toEqual(['ko']);
  });
});
