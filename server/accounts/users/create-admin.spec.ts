import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { openDatabase } from '../../platform/database/prepare';
import { testDatabaseConfig } from '../../test/database';
import { hashPassword, verifyPassword } from '../auth/password';
import { createAdmin } from './create-admin';
import { User, UserType } from './user.entity';

describe(createAdmin.name, () => {
  let dir: string;
  let db: DataSource;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lingonovel-admin-'));
    db = await openDatabase(await testDatabaseConfig(dir));
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates an administrator with a hashed password', async () => {
    const { message } = await createAdmin(db, {
      email: 'Ada@Example.org',
      password: 'correct horse',
      name: 'Ada',
    });
    expect(message).toBe('Created administrator ada@example.org.');
    const user = await db.getRepository(User).findOneByOrFail({ email: 'ada@example.org' });
    expect(user).toEqual(expect.objectContaining({ name: 'Ada', userType: UserType.Admin, userRoleId: 1 }));
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword(user.passwordHash, 'correct horse')).toBe(true);
  });

  it('refuses a password shorter than 8 characters and creates nothing', async () => {
    await expect(createAdmin(db, { email: 'a@b.org', password: 'short', name: 'A' })).rejects.toThrow(
      'The password must be 8 to 128 characters long.',
    );
    expect(await db.getRepository(User).count()).toBe(0);
  });

  it('refuses a name holding a control character, as the sign-up form does, and takes one in a password', async () => {
    await expect(
      createAdmin(db, { email: 'a@b.org', password: 'long enough', name: 'A\u001b[31m' }),
    ).rejects.toThrow('The --name contains a control character (U+001B), which text cannot hold.');
    expect(await db.getRepository(User).count()).toBe(0);
    await createAdmin(db, { email: 'a@b.org', password: 'long\u0001enough', name: 'A' });
    const user = await db.getRepository(User).findOneByOrFail({ email: 'a@b.org' });
    expect(await verifyPassword(user.passwordHash, 'long\u0001enough')).toBe(true);
  });

  it('refuses a missing or malformed email', async () => {
    await expect(createAdmin(db, { password: 'long enough', name: 'A' })).rejects.toThrow(
      'A valid --email is required.',
    );
    await expect(createAdmin(db, { email: 'nope', password: 'long enough', name: 'A' })).rejects.toThrow(
      'A valid --email is required.',
    );
  });

  it('promotes an existing member, keeping their password unless a new one is given', async () => {
    const users = db.getRepository(User);
    await users.save({
      name: 'Bo',
      email: 'bo@example.org',
      passwordHash: await hashPassword('member pass'),
    });
    const { message } = await createAdmin(db, { email: 'bo@example.org' });
    expect(message).toBe('Promoted bo@example.org to administrator.');
    const promoted = await users.findOneByOrFail({ email: 'bo@example.org' });
    expect(promoted.userType).toBe(UserType.Admin);
    expect(await verifyPassword(promoted.passwordHash, 'member pass')).toBe(true);
    expect(await users.count()).toBe(1);
  });
});
