import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from './platform/paths';

/**
 * Rules written once, checked on the source text (docs/architecture.md, "One access rule, signed clips"):
 * which chapters are free is the catalogue's rule (content/catalogue/free-chapters.ts), and a member's plan is
 * billing's (accounts/billing/member-plans.ts). A second copy of either is how a gate and a page come to disagree.
 */

const SERVER = join(PROJECT_ROOT, 'server');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'demo' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const files = () =>
  sourceFiles(SERVER).map((file) => ({
    path: relative(SERVER, file).split('\\').join('/'),
    text: readFileSync(file, 'utf8'),
  }));

/** The lowest chapter number of a book, in SQL or a query builder, spelled any way. */
const FIRST_CHAPTER_SQL = /\bMIN\s*\(\s*(?:DISTINCT\s+)?[\w".`[\]]*chapter_?no/i;

/** Other ways to pick a book's first chapter: the ways a second copy of the rule would be written. */
const FIRST_CHAPTER_OTHERWISE = [
  FIRST_CHAPTER_SQL,
  // The smallest by sorting: ORDER BY chapter_no … LIMIT 1, or orderBy('c.chapterNo') … limit/take(1).
  /ORDER\s+BY\s+[\w".`]*chapter_?no(?:\s+ASC)?\b[^;]{0,60}?\bLIMIT\s+1\b/i,
  /orderBy\(\s*['"][\w.]*chapter_?no['"](?:\s*,\s*['"]ASC['"])?\s*\)[\s\S]{0,120}?\.(?:limit|take)\(\s*1\s*\)/i,
  // No chapter before it: NOT EXISTS (… other.chapter_no < c.chapter_no).
  /NOT\s+EXISTS\s*\([^)]*chapter_?no\s*</i,
  // In memory: Math.min over chapter numbers.
  /Math\.min\([\s\S]{0,80}?chapter_?no/i,
];

/** Reading billing's table: its entity, a repository of it, or SQL that names the table. */
const READS_SUBSCRIPTIONS = [
  /from\s+['"][^'"]*\bbilling\/subscription\.entity['"]/,
  /\b(?:InjectRepository|getRepository|forFeature)\s*\(\s*\[?[^)]*\bSubscription\b/,
  /\b(?:FROM|JOIN|INTO|UPDATE)\s+"?subscriptions"?\b/i,
];

/**
 * Files that name billing's table without being a second reader of it: the entity list every connection
 * registers, the schema's migrations, and the installation copy, which moves every table as it is.
 */
const SUBSCRIPTIONS_EXEMPT = (path: string) =>
  path.startsWith('accounts/billing/') ||
  path.startsWith('platform/migrations/') ||
  path === 'platform/database/schema.ts' ||
  path === 'platform/database/copy-installation.ts';

export function firstChapterSqlOutsideCatalogue(all: Array<{ path: string; text: string }>): string[] {
  return all
    .filter(
      ({ path, text }) =>
        path !== 'content/catalogue/free-chapters.ts' && FIRST_CHAPTER_OTHERWISE.some((re) => re.test(text)),
    )
    .map(({ path }) => path);
}

export function subscriptionReadersOutsideBilling(all: Array<{ path: string; text: string }>): string[] {
  return all
    .filter(
      ({ path, text }) => !SUBSCRIPTIONS_EXEMPT(path) && READS_SUBSCRIPTIONS.some((re) => re.test(text)),
    )
    .map(({ path }) => path);
}

describe('rules written once', () => {
  it('finds each kind of second copy', () => {
    const sample = (path: string, text: string) => [{ path, text }];
    for (const text of [
      `sub.select('MIN(c1.chapterNo)')`,
      'WHERE c.chapter_no > (SELECT MIN(c1.chapter_no) FROM chapters c1)',
      'SELECT min( "c"."chapter_no" ) FROM chapters',
      'SELECT id FROM chapters WHERE book_id = ? ORDER BY chapter_no ASC LIMIT 1',
      `qb.orderBy('c.chapterNo', 'ASC').limit(1)`,
      'WHERE NOT EXISTS (SELECT 1 FROM chapters o WHERE o.book_id = c.book_id AND o.chapter_no < c.chapter_no)',
      'const first = Math.min(...chapters.map((c) => c.chapterNo));',
    ])
      expect(firstChapterSqlOutsideCatalogue(sample('learning/words/words.service.ts', text))).toEqual([
        'learning/words/words.service.ts',
      ]);
    expect(
      firstChapterSqlOutsideCatalogue(sample('learning/words/review.service.ts', `select('MIN(w.due)')`)),
    ).toEqual([]);
    expect(
      firstChapterSqlOutsideCatalogue(sample('content/catalogue/free-chapters.ts', 'MIN(first.chapter_no)')),
    ).toEqual([]);

    for (const text of [
      "import { Subscription } from '../../accounts/billing/subscription.entity';",
      "import { Subscription } from '../billing/subscription.entity';",
      '@InjectRepository(Subscription) private readonly subscriptions: Repository<Subscription>',
      'TypeOrmModule.forFeature([Book, Subscription])',
      "db.query('SELECT status FROM subscriptions WHERE user_id = $1')",
      'LEFT JOIN subscriptions s ON s.user_id = u.id',
    ])
      expect(subscriptionReadersOutsideBilling(sample('learning/reading/reading.service.ts', text))).toEqual([
        'learning/reading/reading.service.ts',
      ]);
    expect(
      subscriptionReadersOutsideBilling(sample('accounts/billing/member-plans.ts', 'FROM subscriptions')),
    ).toEqual([]);
    expect(
      subscriptionReadersOutsideBilling(
        sample('accounts/users/users.dto.ts', 'class ProfileWithSubscription'),
      ),
    ).toEqual([]);
  });

  it('keeps "which chapter is free" in content/catalogue/free-chapters.ts', () => {
    const all = files();
    expect(all.length).toBeGreaterThan(100);
    expect(firstChapterSqlOutsideCatalogue(all)).toEqual([]);
    expect(all.find(({ path }) => path === 'content/catalogue/free-chapters.ts')?.text).toMatch(
      FIRST_CHAPTER_SQL,
    );
  });

  it('leaves the subscriptions table to billing/', () => {
    expect(subscriptionReadersOutsideBilling(files())).toEqual([]);
  });
});
