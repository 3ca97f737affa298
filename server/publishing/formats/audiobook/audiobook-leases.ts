import type { DataSource, Repository } from 'typeorm';
import { changedRows } from '../../../platform/database/sql';
import { isUniqueViolation } from '../../../platform/database/db-errors';
import { AudiobookBuild, type AudiobookEdition } from '../audiobook-build.entity';

/** Errors kept in the row are cut to this: a row, not a log. */
const MAX_ERROR_CHARS = 500;

/**
 * The one writer of `audiobook_builds`: which version of a book each M4B holds, and who builds it now.
 * A build is claimed with a conditional UPDATE (or, for a first build, an INSERT that the unique index on
 * book and edition refuses to a second instance) that only succeeds while no live lease exists, so one
 * builder runs at a time across instances; a lease that is not renewed (a crashed instance) runs out and
 * is taken over. A failed build's ownerless lease only holds back the version that failed: the book's
 * next version (a fix) is claimed at once. Lease times are each instance's clock (docs/scaling.md: NTP).
 * Plain SQL both databases take (platform/database/sql.ts).
 */
export class AudiobookLeases {
  constructor(
    private readonly db: DataSource,
    private readonly rows: Repository<AudiobookBuild>,
  ) {}

  find(bookId: number, edition: AudiobookEdition): Promise<AudiobookBuild | null> {
    return this.rows.findOneBy({ bookId, edition });
  }

  /** Every row of these books (every row at all without ids). */
  ofBooks(bookIds?: number[]): Promise<AudiobookBuild[]> {
    if (!bookIds) return this.rows.find();
    if (!bookIds.length) return Promise.resolve([]);
    return this.rows.createQueryBuilder('b').where('b.book_id IN (:...bookIds)', { bookIds }).getMany();
  }

  /**
   * Takes the build of `version` for `owner` until `untilMs`, when no live lease stands in the way (the
   * pause after a failure holds back only the version that failed).
   */
  async claim(
    bookId: number,
    edition: AudiobookEdition,
    version: string,
    owner: string,
    nowMs: number,
    untilMs: number,
  ): Promise<boolean> {
    const taken = await changedRows(
      this.db,
      `UPDATE audiobook_builds
          SET state = 'building', building_version = ?, lease_owner = ?, lease_until_ms = ?,
              updated_at = CURRENT_TIMESTAMP
        WHERE book_id = ? AND edition = ?
          AND (lease_until_ms IS NULL OR lease_until_ms < ?
               OR (state = 'failed' AND (failed_version IS NULL OR failed_version <> ?)))`,
      [version, owner, untilMs, bookId, edition, nowMs, version],
    );
    if (taken) return true;
    if (await this.rows.existsBy({ bookId, edition })) return false;
    try {
      await this.rows.insert({
        bookId,
        edition,
        state: 'building',
        version: '',
        buildingVersion: version,
        leaseOwner: owner,
        leaseUntilMs: untilMs,
      });
      return true;
    } catch (error) {
      // Another instance inserted the row first: its build, not ours.
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Keeps the lease (and says which version is being built); false when it was lost to another. */
  async renew(id: number, owner: string, version: string, untilMs: number): Promise<boolean> {
    return (
      (await changedRows(
        this.db,
        `UPDATE audiobook_builds SET lease_until_ms = ?, building_version = ?
          WHERE id = ? AND lease_owner = ?`,
        [untilMs, version, id, owner],
      )) === 1
    );
  }

  /**
   * Records the file of `version` and ends the lease, when still held; answers the key of the file it
   * replaces (to delete), or false when the lease was lost (the new file is then the sweep's).
   */
  async finish(
    id: number,
    owner: string,
    version: string,
    fileKey: string,
    fileBytes: number,
  ): Promise<{ replaced: string | null } | false> {
    const before = await this.rows.findOneBy({ id });
    if (!before || before.leaseOwner !== owner) return false;
    const done = await changedRows(
      this.db,
      `UPDATE audiobook_builds
          SET state = 'ready', version = ?, file_key = ?, file_bytes = ?, building_version = NULL,
              failed_version = NULL, lease_owner = NULL, lease_until_ms = NULL, error = NULL, updated_at = CURRENT_TIMESTAMP
        WHERE id = ? AND lease_owner = ?`,
      [version, fileKey, fileBytes, id, owner],
    );
    if (done !== 1) return false;
    return { replaced: before.fileKey && before.fileKey !== fileKey ? before.fileKey : null };
  }

  /**
   * Records a failed build of `version`. The lease is kept, by nobody, until `retryAtMs`: no one claims
   * that version again before then, so a book whose build fails is not rebuilt in a tight loop; another
   * version (the book once fixed) may be claimed at once.
   */
  async fail(id: number, owner: string, version: string, error: string, retryAtMs: number): Promise<void> {
    await changedRows(
      this.db,
      `UPDATE audiobook_builds
          SET state = 'failed', error = ?, failed_version = ?, building_version = NULL, lease_owner = NULL,
              lease_until_ms = ?, updated_at = CURRENT_TIMESTAMP
        WHERE id = ? AND lease_owner = ?`,
      [error.slice(0, MAX_ERROR_CHARS), version, retryAtMs, id, owner],
    );
  }

  /** Gives a lease up without a result (the app is shutting down): another instance may take it now. */
  async release(id: number, owner: string): Promise<void> {
    await changedRows(
      this.db,
      `UPDATE audiobook_builds SET lease_owner = NULL, lease_until_ms = NULL, building_version = NULL,
              failed_version = NULL, state = CASE WHEN file_key IS NULL THEN 'failed' ELSE 'ready' END,
              error = ?
        WHERE id = ? AND lease_owner = ?`,
      ['The build was interrupted: the server stopped.', id, owner],
    );
  }

  /** What the sweep keeps: the files rows point to, and the versions under a live lease. */
  async inUse(nowMs: number): Promise<{ keys: Set<string>; building: Set<string> }> {
    const rows = await this.rows.find();
    return {
      keys: new Set(rows.flatMap((row) => (row.fileKey ? [row.fileKey] : []))),
      building: new Set(
        rows.flatMap((row) =>
          row.buildingVersion && (row.leaseUntilMs ?? 0) >= nowMs ? [row.buildingVersion] : [],
        ),
      ),
    };
  }
}
