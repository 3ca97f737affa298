import { Logger } from '@nestjs/common';
import { CatalogueEvents } from './catalogue-events';
import { RefreshingIndex } from './refreshing-index';

/** An index whose reads the test answers one by one: the simplest subclass, the last read started wins. */
class FakeIndex extends RefreshingIndex {
  readonly reads: Array<{ books: string[]; resolve: () => void; reject: (error: Error) => void }> = [];
  private latest = 0;

  constructor(events = new CatalogueEvents()) {
    super(events, 'the fake index; it cannot tell until a retry works');
  }

  get canTell(): boolean {
    return this.current;
  }

  async refresh(books: string[] = []): Promise<void> {
    const run = this.begin();
    try {
      await new Promise<void>((resolve, reject) => this.reads.push({ books, resolve, reject }));
    } catch (error) {
      if (run >= this.latest) {
        this.latest = run;
        this.failed(error);
      }
      throw error;
    }
    if (run < this.latest) return;
    this.latest = run;
    this.worked();
  }
}

describe(RefreshingIndex.name, () => {
  const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  beforeEach(() => error.mockClear());
  afterEach(() => jest.useRealTimers());

  it('reads at boot and on each catalogue change, passing on the books the change names', async () => {
    const events = new CatalogueEvents();
    const index = new FakeIndex(events);
    const boot = index.onApplicationBootstrap();
    index.reads[0].resolve();
    await boot;
    expect(index.canTell).toBe(true);
    const change = events.changed('a-book');
    expect(index.reads[1].books).toEqual(['a-book']);
    index.reads[1].resolve();
    await change;
  });

  it('names what it cannot read, and from when on it cannot tell, in the log', async () => {
    const index = new FakeIndex();
    const follow = index.follow();
    index.reads[0].reject(new Error('connection refused'));
    await follow;
    expect(index.canTell).toBe(false);
    expect(error).toHaveBeenCalledWith(
      'Could not read the fake index; it cannot tell until a retry works: Error: connection refused',
    );
    index.onModuleDestroy();
  });

  it('retries after 1 s, doubling the delay up to a minute, and starts again at 1 s once a read works', async () => {
    jest.useFakeTimers();
    const index = new FakeIndex();
    const delays: number[] = [];
    void index.follow();
    for (let failures = 0; failures < 9; failures++) {
      index.reads.at(-1)!.reject(new Error('down'));
      await jest.advanceTimersByTimeAsync(0);
      const before = index.reads.length;
      let waited = 0;
      while (index.reads.length === before) {
        await jest.advanceTimersByTimeAsync(1000);
        waited += 1000;
      }
      delays.push(waited);
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    index.reads.at(-1)!.resolve();
    await jest.advanceTimersByTimeAsync(0);
    expect(index.canTell).toBe(true);
    void index.follow();
    index.reads.at(-1)!.reject(new Error('down again'));
    await jest.advanceTimersByTimeAsync(0);
    const before = index.reads.length;
    await jest.advanceTimersByTimeAsync(1000);
    expect(index.reads).toHaveLength(before + 1);
    index.onModuleDestroy();
  });

  it('stops retrying once destroyed, and logs nothing more', async () => {
    jest.useFakeTimers();
    const index = new FakeIndex();
    const follow = index.follow();
    index.reads[0].reject(new Error('down'));
    await follow;
    index.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(120_000);
    expect(index.reads).toHaveLength(1);
    const late = index.follow();
    index.reads[1].reject(new Error('still down'));
    await late;
    await jest.advanceTimersByTimeAsync(120_000);
    expect(index.reads).toHaveLength(2);
    expect(error).toHaveBeenCalledTimes(1);
  });
});
