import type { LocalCopy, MediaStore } from '../../../platform/media/store/media-store';

/** Clips fetched ahead of the one being decoded: a few small files, whatever the book's size. */
const AHEAD = 3;

/**
 * The media store as a build reads it: clips are asked for in the book's order, so while one is decoded
 * the local copies of the next few are already on their way (from a bucket, a download each; from a
 * folder, the file itself at no cost). Every other method is the store's own.
 */
export class ClipPrefetch {
  private next = 0;
  private readonly fetched = new Map<number, Promise<LocalCopy>>();
  readonly store: MediaStore;

  constructor(
    private readonly media: MediaStore,
    private readonly keys: readonly string[],
  ) {
    this.store = Object.assign(Object.create(media) as MediaStore, {
      localCopy: (key: string) => this.localCopy(key),
    });
  }

  /** Releases the copies fetched for clips that were never decoded (a build that stopped early). */
  async close(): Promise<void> {
    const left = [...this.fetched.values()];
    this.fetched.clear();
    for (const copy of left) await (await copy.catch(() => null))?.release();
  }

  private localCopy(key: string): Promise<LocalCopy> {
    const index = this.next++;
    // Asked out of order (never, from the encoder): no guessing, the store's own copy.
    if (this.keys[index] !== key) return this.media.localCopy(key);
    const copy = this.fetched.get(index) ?? this.media.localCopy(key);
    this.fetched.delete(index);
    for (let ahead = index + 1; ahead <= index + AHEAD && ahead < this.keys.length; ahead++) {
      if (this.fetched.has(ahead)) continue;
      const coming = this.media.localCopy(this.keys[ahead]);
      // Its failure is the decode's to report, when that clip's turn comes.
      coming.catch(() => undefined);
      this.fetched.set(ahead, coming);
    }
    return copy;
  }
}
