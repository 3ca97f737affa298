import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ValidationFailed } from '../../platform/common/api-error';
import { MessageAnswer } from '../../platform/common/answers';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { changedRows, sql } from '../../platform/database/sql';
import { createAdmin } from '../users/create-admin';
import { UserType } from '../users/user.entity';
import type { SetupDto, SetupStateAnswer } from './setup.dto';

/** Where the setup code's hash waits for its one use (app_meta). */
const CODE_KEY = 'setup_code';
/** Letters a person copies from a log without confusing them (no 0/O, 1/I/L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** What the boot says of the first administrator (main.ts prints it). */
export type FirstRun =
  { kind: 'ready' } | { kind: 'created'; email: string } | { kind: 'code'; code: string };

/** The code as typed: upper or lower case, with or without its dashes or spaces. */
const hashOf = (code: string) =>
  createHash('sha256')
    .update(code.toUpperCase().replace(/[\s-]+/g, ''))
    .digest();

/**
 * The first run (docs/deploy.md, "First run"): while no administrator exists, each boot prints a new
 * one-time setup code, kept in the database as its hash until used, and `/setup` (POST /api/v1/setup)
 * creates the first administrator with it. Or INIT_ADMIN_EMAIL and INIT_ADMIN_PASSWORD create them at boot.
 * Once an administrator exists the code is gone and setup answers 409.
 */
@Injectable()
export class SetupService {
  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private async adminExists(): Promise<boolean> {
    const rows = await sql<unknown[]>(this.db, 'SELECT 1 FROM users WHERE user_type = ? LIMIT 1', [
      UserType.Admin,
    ]);
    return rows.length > 0;
  }

  /** At boot: nothing to do, the administrator of INIT_ADMIN_*, or a new setup code. */
  async atBoot(): Promise<FirstRun> {
    if (await this.adminExists()) {
      await sql(this.db, 'DELETE FROM app_meta WHERE key = ?', [CODE_KEY]);
      return { kind: 'ready' };
    }
    const { initAdmin } = this.config;
    if (initAdmin) {
      const { user } = await createAdmin(this.db, { ...initAdmin, name: 'Administrator' });
      await sql(this.db, 'DELETE FROM app_meta WHERE key = ?', [CODE_KEY]);
      return { kind: 'created', email: user.email };
    }
    const bytes = randomBytes(12);
    const code = Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length])
      .join('')
      .replace(/(.{4})(?!$)/g, '$1-');
    const hash = hashOf(code).toString('hex');
    await sql(this.db, 'DELETE FROM app_meta WHERE key = ?', [CODE_KEY]);
    await sql(this.db, 'INSERT INTO app_meta (key, value) VALUES (?, ?)', [CODE_KEY, hash]);
    return { kind: 'code', code };
  }

  async state(): Promise<SetupStateAnswer> {
    return { data: { needed: !(await this.adminExists()) } };
  }

  /** Creates the first administrator with the boot's code; the code is used up by the first that matches. */
  async create(dto: SetupDto): Promise<MessageAnswer> {
    if (await this.adminExists()) throw new ConflictException('Lingonovel is set up already: sign in.');
    const [stored] = await sql<Array<{ value: string }>>(
      this.db,
      'SELECT value FROM app_meta WHERE key = ?',
      [CODE_KEY],
    );
    if (!stored) throw new NotFoundException('There is no setup to do: restart the server for a setup code.');
    const expected = Buffer.from(String(stored.value), 'hex');
    const given = hashOf(dto.code);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw ValidationFailed.field('code', 'This is not the setup code the server printed.');
    await this.db.transaction(async (tx) => {
      // The code's deletion is the claim: of two setups at once, one deletes it, the other finds it gone.
      if (
        !(await changedRows(tx, 'DELETE FROM app_meta WHERE key = ? AND value = ?', [CODE_KEY, stored.value]))
      )
        throw new ConflictException('Lingonovel is set up already: sign in.');
      // An existing member is not made administrator here (their password would change): create-admin does it.
      if ((await sql<unknown[]>(tx, 'SELECT 1 FROM users WHERE email = ?', [dto.email])).length)
        throw ValidationFailed.field(
          'email',
          'A member has this address: choose another, or promote them with create-admin.',
        );
      await createAdmin(tx, { name: dto.name, email: dto.email, password: dto.password });
    });
    return { message: `Created administrator ${dto.email}: sign in.` };
  }
}
