import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes, ID_COLUMN, timestampNow } from './column-types';

/**
 * Standard formats in and out (docs/formats.md):
 * - `audio_measures`: a clip's length as decoding it gives (ffmpeg), in microseconds (so that sums over thousands of clips
 *   drift by none), per stored file, so read-along EPUBs,
 *   subtitles and audiobook chapters use the audio's own length, never a container's figure. Keyed by the
 *   store and key (`media:lines/…`, `derived:epub-audio/…`): keys are random and never reused.
 * - `app_passwords`: what reading apps (OPDS, HTTP Basic) sign in with; only a hash of each is kept.
 * - `audiobook_builds`: one row per book and edition (`full`, `sample`): which version of the book its M4B
 *   holds, and which instance builds it now (a lease), so that one builder runs at a time.
 * Table API and plain SQL both databases take.
 */
export class Formats1764230400000 implements MigrationInterface {
  name = 'Formats1764230400000';

  async up(db: QueryRunner): Promise<void> {
    const { time } = columnTypes(db);
    const cascade = (column: string, table: string) => ({
      columnNames: [column],
      referencedTableName: table,
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    });
    await db.createTable(
      new Table({
        name: 'audio_measures',
        columns: [
          { name: 'audio_key', type: 'varchar', length: '600', isPrimary: true },
          { name: 'decoded_us', type: 'bigint' },
          timestampNow(time, 'measured_at'),
        ],
      }),
    );
    await db.createTable(
      new Table({
        name: 'app_passwords',
        columns: [
          ID_COLUMN,
          { name: 'user_id', type: 'integer' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'secret_hash', type: 'varchar', length: '64' },
          timestampNow(time, 'created_at'),
          { name: 'last_used_at', type: time, isNullable: true },
        ],
        uniques: [{ name: 'UQ_app_passwords_secret_hash', columnNames: ['secret_hash'] }],
        indices: [{ name: 'IDX_app_passwords_user', columnNames: ['user_id'] }],
        foreignKeys: [cascade('user_id', 'users')],
      }),
    );
    await db.createTable(
      new Table({
        name: 'audiobook_builds',
        columns: [
          ID_COLUMN,
          { name: 'book_id', type: 'integer' },
          { name: 'edition', type: 'varchar', length: '8' },
          { name: 'state', type: 'varchar', length: '10' },
          { name: 'version', type: 'varchar', length: '64' },
          { name: 'building_version', type: 'varchar', length: '64', isNullable: true },
          { name: 'failed_version', type: 'varchar', length: '64', isNullable: true },
          { name: 'file_key', type: 'varchar', length: '300', isNullable: true },
          { name: 'file_bytes', type: 'bigint', isNullable: true },
          { name: 'lease_owner', type: 'varchar', length: '64', isNullable: true },
          { name: 'lease_until_ms', type: 'bigint', isNullable: true },
          { name: 'error', type: 'text', isNullable: true },
          timestampNow(time, 'updated_at'),
        ],
        uniques: [{ name: 'UQ_audiobook_builds_book_edition', columnNames: ['book_id', 'edition'] }],
        foreignKeys: [cascade('book_id', 'books')],
      }),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.dropTable('audiobook_builds');
    await db.dropTable('app_passwords');
    await db.dropTable('audio_measures');
  }
}
