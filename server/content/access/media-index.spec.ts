import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import type { MediaTrash } from '../../platform/media/media-trash';
import { MediaIndex } from './media-index';

type Row = { path: string; chapter_no: number; first_chapter_no: number };
const FREE: Row = { path: 'lines/free.mp3', chapter_no: 1, first_chapter_no: 1 };
const LOCKED: Row = { path: 'lines/locked.mp3', chapter_no: 2, first_chapter_no: 1 };

/** A database whose answers the test hands out one by one, in any order. */
function fakeDb() {
  const pending: Array<{ resolve: (rows: Row[]) => void; reject: (error: Error) => void }> = [];
  const db = {
    query: jest.fn(() => new Promise<Row[]>((resolve, reject) => pending.push({ resolve, reject }))),
  };
  return { db: db as unknown as DataSource, pending };
}

/** A trash holding `keys`, let go of and not pointed to again. */
const trashOf = (...keys: string[]) => ({ withdrawn: () => Promise.resolve(keys) }) as unknown as MediaTrash;
const TRASH = trashOf();

describe(MediaIndex.name, () => {
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.useRealTimers());

  it('cannot tell anything before its first refresh', () => {
    const index = new MediaIndex(fakeDb().db, TRASH, new CatalogueEvents());
    expect(index.clip(FREE.path)).toBe('unknown');
    expect(index.isKnownFree(FREE.path)).toBe(false);
  });

  it('tells free, locked and unclassified clips apart once refreshed', async () => {
    const { db, pending } = fakeDb();
    const index = new MediaIndex(db, TRASH, new CatalogueEvents());
    const done = index.refresh();
    pending[0].resolve([FREE, LOCKED]);
    await done;
    expect([index.clip(FREE.path), index.clip(LOCKED.path), index.clip('lines/new.mp3')]).toEqual([
      'free',
      'locked',
      'unknown',
    ]);
    expect(index.isKnownFree(FREE.path)).toBe(true);
  });

  it('knows the files let go of, and keeps the last list it read when a refresh fails', async () => {
    const { db, pending } = fakeDb();
    const trash = { withdrawn: jest.fn(() => Promise.resolve(['covers/gone-640.webp', 'lines/gone.mp3'])) };
    const index = new MediaIndex(db, trash as unknown as MediaTrash, new CatalogueEvents());
    expect(index.isWithdrawn('lines/gone.mp3')).toBe(false);
    const first = index.refresh();
    pending[0].resolve([FREE]);
    await first;
    expect(index.isWithdrawn('lines/gone.mp3')).toBe(true);
    expect(index.isWithdrawn('covers/gone-640.webp')).toBe(true);
    expect(index.isWithdrawn(FREE.path)).toBe(false);
    const second = index.follow();
    pending[1].reject(new Error('down'));
    await second;
    expect(index.isWithdrawn('covers/gone-640.webp')).toBe(true);
    index.onModuleDestroy();
  });

  it('cannot tell anything after a failed refresh, the clips it knew before included', async () => {
    const { db, pending } = fakeDb();
    const index = new MediaIndex(db, TRASH, new CatalogueEvents());
    const first = index.refresh();
    pending[0].resolve([FREE, LOCKED]);
    await first;
    const second = index.follow();
    pending[1].reject(new Error('connection refused'));
    await second;
    expect(index.clip(FREE.path)).toBe('unknown');
    expect(index.clip(LOCKED.path)).toBe('unknown');
    index.onModuleDestroy();
  });

  it('retries a failed refresh with a growing delay until one works, and logs each failure', async () => {
    jest.useFakeTimers();
    const error = jest.spyOn(Logger.prototype, 'error');
    error.mockClear();
    const { db, pending } = fakeDb();
    const index = new MediaIndex(db, TRASH, new CatalogueEvents());
    const boot = index.onApplicationBootstrap();
    pending[0].reject(new Error('down'));
    await boot;
    expect(error).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(999);
    expect(pending).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(pending).toHaveLength(2);
    pending[1].reject(new Error('still down'));
    await jest.advanceTimersByTimeAsync(1999);
    expect(pending).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(pending).toHaveLength(3);
    expect(error).toHaveBeenCalledTimes(2);
    pending[2].resolve([FREE]);
    await jest.advanceTimersByTimeAsync(0);
    expect(index.clip(FREE.path)).toBe('free');
    // Working again: no more retries.
    await jest.advanceTimersByTimeAsync(120_000);
    expect(pending).toHaveLength(3);
  });

  it('follows catalogue changes, and a listener never sees it fail', async () => {
    const { db, pending } = fakeDb();
    const events = new CatalogueEvents();
    const index = new MediaIndex(db, TRASH, events);
    const changed = events.changed('a-book');
    pending[0].reject(new Error('down'));
    await expect(changed).resolves.toBeUndefined();
    expect(index.clip(FREE.path)).toBe('unknown');
    index.onModuleDestroy();
  });

  it('keeps the answer of the refresh that started last, whichever finishes first', async () => {
    const { db, pending } = fakeDb();
    const index = new MediaIndex(db, TRASH, new CatalogueEvents());
    const older = index.refresh();
    const newer = index.refresh();
    pending[1].resolve([{ ...FREE, chapter_no: 2 }]);
    await newer;
    pending[0].resolve([FREE]);
    await older;
    expect(index.clip(FREE.path)).toBe('locked');
  });

  it('does not let an older failure close what a newer refresh has opened', async () => {
    const { db, pending } = fakeDb();
    const index = new MediaIndex(db, TRASH, new CatalogueEvents());
    const older = index.follow();
    const newer = index.refresh();
    pending[1].resolve([FREE]);
    await newer;
    pending[0].reject(new Error('down'));
    await older;
    expect(index.clip(FREE.path)).toBe('free');
  });

  it('closes when the newer of two refreshes fails, even if the older one works', async () => {
    const { db, pending } = fakeDb();
    const index = new MediaIndex(db, TRASH, new CatalogueEvents());
    const older = index.refresh();
    const newer = index.follow();
    pending[1].reject(new Error('down'));
    await newer;
    pending[0].resolve([FREE]);
    await older;
    expect(index.clip(FREE.path)).toBe('unknown');
    index.onModuleDestroy();
  });
});
