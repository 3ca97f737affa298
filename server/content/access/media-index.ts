import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import { clipsByAccess } from '../catalogue/free-chapters';
import { RefreshingIndex } from '../catalogue/refreshing-index';
import { MediaTrash } from '../../platform/media/media-trash';

/** `free`: served to anyone; `locked`: only with a live signature; `unknown`: the index cannot tell. */
export type ClipVerdict = 'free' | 'locked' | 'unknown';

/**
 * What the /media gate knows without a query: every clip of the catalogue, free or locked (the catalogue's
 * rule, content/catalogue/free-chapters.ts), and the files let go of by a delete or a replace (kept an hour in the
 * trash for backups, platform/media/media-trash.ts, but never served again), so that serving a file costs a set
 * lookup. Refreshed at boot and on every catalogue change (content/catalogue/refreshing-index.ts); admin services
 * await the change before answering, so a new clip is classified, and a deleted file withdrawn, before
 * the admin is answered.
 *
 * It fails closed: until the first refresh has worked, and from a failed refresh until one works again,
 * every clip is `unknown` (the gate then asks for a signature), since a change it missed may have locked
 * any of them. While a refresh is in flight the previous answer stands: it was right before the change
 * that started it.
 */
@Injectable()
export class MediaIndex extends RefreshingIndex {
  private free = new Set<string>();
  private locked = new Set<string>();
  private withdrawn = new Set<string>();
  /** The latest-started read that has ended, worked or failed: an older one ending later is ignored. */
  private finished = 0;

  constructor(
    private readonly db: DataSource,
    private readonly trash: MediaTrash,
    events: CatalogueEvents,
  ) {
    super(events, 'which clips are free; every clip needs a signed link until a retry works');
  }

  clip(path: string): ClipVerdict {
    if (!this.current) return 'unknown';
    if (this.free.has(path)) return 'free';
    return this.locked.has(path) ? 'locked' : 'unknown';
  }

  /**
   * Whether a file was let go of (its book, chapter or phrase deleted, or the file replaced): a 404, signed
   * or not. After a failed refresh this is the last list read, the best there is: a clip needs a signature
   * then anyway, and covers and samples are public whatever happens.
   */
  isWithdrawn(path: string): boolean {
    return this.withdrawn.has(path);
  }

  /** Whether anyone may fetch this clip without a signature right now: what an unsigned URL needs. */
  isKnownFree(path: string): boolean {
    return this.clip(path) === 'free';
  }

  /**
   * Reads every clip and the trash again, whichever books a change names; rejects when the read fails,
   * after marking every clip unknown.
   */
  async refresh(): Promise<void> {
    const run = this.begin();
    try {
      const { free, locked } = await clipsByAccess(this.db);
      const withdrawn = await this.trash.withdrawn();
      if (run < this.finished) return;
      this.finished = run;
      this.free = new Set(free);
      this.locked = new Set(locked);
      this.withdrawn = new Set(withdrawn);
      this.worked();
    } catch (error) {
      if (run >= this.finished) {
        this.finished = run;
        this.failed(error);
      }
      throw error;
    }
  }
}
