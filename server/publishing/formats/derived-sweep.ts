import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SWEEP_MIN_AGE_MS } from '../../platform/media/media.service';
import { coverKeyOf, MediaTrash, referencedMedia } from '../../platform/media/media-trash';
import { DERIVED_STORE } from '../../platform/media/store/create-stores';
import type { MediaStore } from '../../platform/media/store/media-store';
import { OPDS_COVER_WIDTHS, opdsCoverKey } from '../opds/opds-covers';
import { AudioMeasures } from './audio-measures';
import { transcodeKey } from './epub-clips';

/** Once a day, and at boot: what piles up is a re-recorded line's transcode, not a flood. */
const SWEEP_EVERY_MS = 24 * 3_600_000;
/** Rows of `audio_measures` read at once while looking for lengths of files that are gone. */
const PAGE = 1_000;

/** The derived files made from a media key: its EPUB transcode, or a cover's OPDS JPEGs. */
function derivedFrom(key: string): string[] {
  return key.startsWith('covers/')
    ? OPDS_COVER_WIDTHS.map((width) => opdsCoverKey(key, width))
    : [transcodeKey(key)];
}

/**
 * Removes derived files (docs/formats.md "The derived store") whose media neither a row nor the media
 * trash points to any more: the EPUB transcode of a line re-recorded or deleted, the OPDS JPEGs of a
 * replaced cover. It also forgets the lengths kept for files that are gone, from either store. Files and
 * lengths younger than an hour stay (another instance may be between storing media and committing its
 * row), and so does anything another part owns: audiobooks/ has its own sweep (audiobook-builder.ts).
 * Everything here can be made again, so a file swept too eagerly costs a transcode, never data.
 */
@Injectable()
export class DerivedSweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DerivedSweep.name);
  private timer: NodeJS.Timeout | null = null;
  /** The sweep under way, awaited at shutdown; `stopping` ends its walk of the table early. */
  private running: Promise<unknown> = Promise.resolve();
  private stopping = false;

  constructor(
    private readonly db: DataSource,
    private readonly trash: MediaTrash,
    private readonly measures: AudioMeasures,
    @Inject(DERIVED_STORE) private readonly derived: MediaStore,
  ) {}

  /** Not awaited: a large store's listing must not hold up the first request. */
  onApplicationBootstrap(): void {
    const run = () => {
      this.running = this.sweep().catch((error: unknown) =>
        this.logger.warn(`The derived store's sweep failed: ${String(error)}`),
      );
    };
    run();
    this.timer = setInterval(run, SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Sweeps once; answers how many files and kept lengths it removed. */
  async sweep(now = new Date(), minAgeMs = SWEEP_MIN_AGE_MS): Promise<{ files: number; lengths: number }> {
    // Media in the trash too: a line deleted a moment ago may be in an EPUB being streamed, whose
    // transcode must outlive it by the trash's hour, as the media does (media-trash.ts).
    // The trash keeps each file of a cover (`covers/<hex>-640.webp`): its JPEGs are named after the cover.
    const trashed = (await this.trash.keys()).map(coverKeyOf);
    const media = new Set([...(await referencedMedia(this.db)), ...trashed]);
    const wanted = new Set([...media].flatMap(derivedFrom));
    const listed = [
      ...(await this.derived.list('epub-audio/')),
      ...(await this.derived.list('opds-covers/')),
    ];
    const gone = new Set(
      listed
        .filter((object) => !wanted.has(object.key))
        .filter((object) => now.getTime() - object.lastModified.getTime() >= minAgeMs)
        .map((object) => object.key),
    );
    await this.derived.delete([...gone]);

    // A length is kept while its file may still be asked for: a referenced media key, or a derived file
    // that is still there.
    const kept = new Set([
      ...[...media].map((key) => `media:${key}`),
      ...listed.filter((object) => !gone.has(object.key)).map((object) => `derived:${object.key}`),
    ]);
    let lengths = 0;
    for (let after = ''; !this.stopping;) {
      const page = await this.measures.keptAfter(after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1].audioKey;
      // Young rows stay too: the media of a line being saved may be measured before its row is committed.
      // Only EPUB transcodes are measured in the derived store (an audiobook counts its own samples).
      const stale = page
        .filter((row) => !kept.has(row.audioKey))
        .filter((row) => now.getTime() - row.measuredAt.getTime() >= minAgeMs)
        .map((row) => row.audioKey);
      await this.measures.forget(stale);
      lengths += stale.length;
    }
    if (gone.size || lengths)
      this.logger.log(`Removed ${gone.size} derived file(s) and ${lengths} kept length(s) nothing uses`);
    return { files: gone.size, lengths };
  }
}
