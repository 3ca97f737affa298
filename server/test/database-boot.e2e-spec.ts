import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../platform/config';
import { dataSourceOptions } from '../platform/database/data-source';
import { openDatabase } from '../platform/database/prepare';
import { KNOWN_MIGRATIONS, SchemaTooNewError } from '../platform/database/schema-guard';
import { sql } from '../platform/database/sql';
import { prepareDatabase } from '../platform/database/prepare';
import { MIGRATIONS } from '../platform/database/schema';
import { ApiClient, newMember } from './api-client';
import { testDatabaseConfig } from './database';
import { startServer, tempStorage } from './harness';

/** What every boot does before serving: migrations under a lock, and the session secret all instances share. */
describe('Preparing the database at boot', () => {
  it('applies each migration once and agrees on one secret when instances boot at once', async () => {
    const storageDir = tempStorage();
    const database = await testDatabaseConfig(storageDir);
    const configs = Array.from({ length: 3 }, () => ({
      ...loadConfig({ STORAGE_DIR: storageDir }),
      ...database,
    }));
    await Promise.all(configs.map((config) => prepareDatabase(config)));
    const secrets = new Set(configs.map((config) => config.jwtSecret));
    expect(secrets.size).toBe(1);
    expect([...secrets][0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const db = await openDatabase(database);
    try {
      const ran = await db.query<Array<{ name: string }>>('SELECT name FROM migrations ORDER BY id');
      expect(ran.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => new migration().name));
    } finally {
      await db.destroy();
    }
  });

  it('refuses a database a newer build migrated, before any migration, at boot and in the tools', async () => {
    const storageDir = tempStorage();
    const database = await testDatabaseConfig(storageDir);
    const db = await openDatabase(database);
    await sql(db, 'INSERT INTO migrations (timestamp, name) VALUES (?, ?)', [
      1999999999999,
      'ReadingRooms1999999999999',
    ]);
    const tables = async (of: DataSource) => (await of.createQueryRunner().getTables()).length;
    const before = await tables(db);
    await db.destroy();
    const refusal =
      /^the database has 1 migration\(s\) this build does not know \(its newest: ReadingRooms1999999999999\); this build knows up to \w+\d{13}\. .*docs\/upgrading\.md/;
    const boot = prepareDatabase({ ...loadConfig({ STORAGE_DIR: storageDir }), ...database });
    await expect(boot).rejects.toThrow(SchemaTooNewError);
    await expect(boot).rejects.toThrow(refusal);
    await expect(openDatabase(database)).rejects.toThrow(refusal);
    // Nothing was changed: the newer build finds its database as it left it.
    const after = new DataSource(dataSourceOptions(database));
    await after.initialize();
    try {
      expect(await tables(after)).toBe(before);
      const names = await sql<Array<{ name: string }>>(
        after,
        'SELECT name FROM migrations ORDER BY timestamp',
      );
      expect(names.map((row) => row.name)).toEqual([...KNOWN_MIGRATIONS, 'ReadingRooms1999999999999']);
    } finally {
      await after.destroy();
    }
  });

  it('keeps the secret of an older installation (STORAGE_DIR/jwt-secret), so sessions survive the upgrade', async () => {
    const storageDir = tempStorage();
    const legacy = 'an-older-installations-secret-0123456789abcdef';
    writeFileSync(join(storageDir, 'jwt-secret'), `${legacy}\n`);
    const server = await startServer(storageDir);
    expect(server.config.jwtSecret).toBe(legacy);
    const member = await newMember(server);
    const login = await new ApiClient(server).post<{ token: string }>('user/login', {
      email: member.email,
      password: member.password,
    });
    await server.close(true);
    // The file is only offered once: the database's copy is the one kept, even if the file changes.
    writeFileSync(join(storageDir, 'jwt-secret'), 'something-else-entirely-0123456789abcdef\n');
    const again = await startServer(storageDir);
    try {
      expect(again.config.jwtSecret).toBe(legacy);
      expect((await new ApiClient(again, login.body.token).get('user/profile')).status).toBe(200);
      const stored = await again.app
        .get(DataSource)
        .createQueryBuilder()
        .select('m.value', 'value')
        .from('app_meta', 'm')
        .where('m.key = :key', { key: 'jwt_secret' })
        .getRawOne<{ value: string }>();
      expect(stored?.value).toBe(legacy);
    } finally {
      await again.close();
    }
  });

  it('uses a configured JWT_SECRET and stores nothing', async () => {
    const secret = 'a-configured-secret-of-enough-length-0123456789';
    const server = await startServer(tempStorage(), { JWT_SECRET: secret });
    try {
      expect(server.config.jwtSecret).toBe(secret);
      const rows = await server.app
        .get(DataSource)
        .createQueryBuilder()
        .select('m.key', 'key')
        .from('app_meta', 'm')
        .where('m.key = :key', { key: 'jwt_secret' })
        .getRawMany();
      expect(rows).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
