import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { ValidationFailed } from '../../platform/common/api-error';
import { MessageAnswer } from '../../platform/common/answers';
import { Clock } from '../../platform/common/clock';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { changedRows, sql } from '../../platform/database/sql';
import { hashPassword } from '../auth/password';
import { createAdmin } from '../users/create-admin';
import { UserType } from '../users/user.entity';
import type { SetupDto, SetupStateAnswer } from './setup.dto';

/**
 * Where setup codes' hashes wait for their one use: app_meta rows `setup_code:<boot time, ms, 15 digits>:<random>`,
 * so that their keys sort by the boot that wrote them.
 */
const CODE_PREFIX = 'setup_code';
/**
 * The SQL condition of every code row, and of the single `setup_code` row of earlier versions (its key
 * sorts first, so the next boot deletes it). Not LIKE: `_` is its wildcard, and SQLite's ignores case.
 */
const ANY_CODE = `(key = '${CODE_PREFIX}' OR substr(key, 1, ${CODE_PREFIX.length + 1}) = '${CODE_PREFIX}:')`;
const codeKey = (atMs: number) =>
  `${CODE_PREFIX}:${String(atMs).padStart(15, '0')}:${randomBytes(4).toString('hex')}`;
/**
 * Boots this close together are instances deployed at once: each keeps the code it printed. A boot later
 * than that replaces the older codes (a restart prints the code that works).
 */
export const BOOTS_TOGETHER_MS = 5 * 60 * 1000;
/** PostgreSQL's advisory lock for the first-run step, taken by every instance that boots (any fixed number). */
const FIRST_RUN_LOCK = 7_310_002;
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
    private readonly clock: Clock,
  ) {}

  private async adminExists(db: DataSource | EntityManager = this.db): Promise<boolean> {
    const rows = await sql<unknown[]>(db, 'SELECT 1 FROM users WHERE user_type = ? LIMIT 1', [
      UserType.Admin,
    ]);
    return rows.length > 0;
  }

  /**
   * At boot: nothing to do, the administrator of INIT_ADMIN_*, or a new setup code. Instances booting at
   * once on one PostgreSQL database take turns (an advisory lock held by a transaction): the second finds
   * the administrator the first created, and each code is written whole. SQLite has one process (the
   * storage folder's lock), and no transaction here: hashing INIT_ADMIN_PASSWORD would hold its one
   * connection's transaction open while jobs started at boot run their own.
   */
  atBoot(): Promise<FirstRun> {
    if (this.db.options.type !== 'postgres') return this.firstRun(this.db.manager);
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [FIRST_RUN_LOCK]);
      return this.firstRun(tx);
    });
  }

  private async firstRun(db: EntityManager): Promise<FirstRun> {
    if (await this.adminExists(db)) {
      await sql(db, `DELETE FROM app_meta WHERE ${ANY_CODE}`);
      return { kind: 'ready' };
    }
    const { initAdmin } = this.config;
    if (initAdmin) {
      const { user } = await createAdmin(db, { ...initAdmin, name: 'Administrator' });
      await sql(db, `DELETE FROM app_meta WHERE ${ANY_CODE}`);
      return { kind: 'created', email: user.email };
    }
    const bytes = randomBytes(12);
    const code = Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length])
      .join('')
      .replace(/(.{4})(?!$)/g, '$1-');
    const now = this.clock.now().getTime();
    // Older boots' codes stop working; those of boots a moment ago (other instances) keep working.
    await sql(db, `DELETE FROM app_meta WHERE ${ANY_CODE} AND key < ?`, [codeKey(now - BOOTS_TOGETHER_MS)]);
    await sql(db, 'INSERT INTO app_meta (key, value) VALUES (?, ?)', [
      codeKey(now),
      hashOf(code).toString('hex'),
    ]);
    return { kind: 'code', code };
  }

  async state(): Promise<SetupStateAnswer> {
    return { data: { needed: !(await this.adminExists()) } };
  }

  /** Creates the first administrator with the boot's code; the code is used up by the first that matches. */
  async create(dto: SetupDto): Promise<MessageAnswer> {
    if (await this.adminExists()) throw new ConflictException('Lingonovel is set up already: sign in.');
    const codes = await sql<Array<{ key: string; value: string }>>(
      this.db,
      `SELECT key, value FROM app_meta WHERE ${ANY_CODE}`,
    );
    if (!codes.length)
      throw new NotFoundException('There is no setup to do: restart the server for a setup code.');
    const given = hashOf(dto.code);
    const stored = codes.find(({ value }) => {
      const expected = Buffer.from(String(value), 'hex');
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
    if (!stored) throw ValidationFailed.field('code', 'This is not the setup code the server printed.');
    const passwordHash = await hashPassword(dto.password);
    await this.db.transaction(async (tx) => {
      // On PostgreSQL setups and boots take turns: a setup sees the administrator another one has just
      // made, and no boot writes a code while one is being used.
      if (tx.connection.options.type === 'postgres')
        await tx.query('SELECT pg_advisory_xact_lock($1)', [FIRST_RUN_LOCK]);
      if (await this.adminExists(tx)) throw new ConflictException('Lingonovel is set up already: sign in.');
      // The code's deletion is the claim: of two setups at once, one deletes it, the other finds it gone.
      if (
        !(await changedRows(tx, 'DELETE FROM app_meta WHERE key = ? AND value = ?', [
          stored.key,
          stored.value,
        ]))
      )
        throw new ConflictException('Lingonovel is set up already: sign in.');
      await sql(tx, `DELETE FROM app_meta WHERE ${ANY_CODE}`);
      // An existing member is not made administrator here (their password would change): create-admin does it.
      if ((await sql<unknown[]>(tx, 'SELECT 1 FROM users WHERE email = ?', [dto.email])).length)
        throw ValidationFailed.field(
          'email',
          'A member has this address: choose another, or promote them with create-admin.',
        );
      await createAdmin(tx, { name: dto.name, email: dto.email, password: dto.password, passwordHash });
    });
    return { message: `Created administrator ${dto.email}: sign in.` };
  }
}
