import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The closing tally of `npm test` (scripts/test-report.mjs), run as npm test runs it: in a folder whose
 * test-results/ holds the passes' JSON reports. The module is ESM, so a child Node imports it.
 */
const MODULE = join(__dirname, 'test-report.mjs');
const INTENDED = (
  JSON.parse(readFileSync(join(__dirname, 'intended-skips.json'), 'utf8')) as {
    skips: Array<{ run: string; test: string }>;
  }
).skips;

interface JestTest {
  ancestorTitles: string[];
  title: string;
  status: 'passed' | 'failed' | 'pending';
  invocations?: number;
  failureMessages?: string[];
}

type Suite = { file: string; status?: string; tests: JestTest[] };

function tally(reports: { jest?: Suite[]; jestShards?: Suite[][]; playwright?: object }): {
  clean: boolean;
  output: string;
} {
  const dir = mkdtempSync(join(tmpdir(), 'lingonovel-tally-'));
  try {
    mkdirSync(join(dir, 'test-results'));
    if (reports.jest)
      writeFileSync(join(dir, 'test-results/jest.json'), JSON.stringify(jestReport(dir, reports.jest)));
    reports.jestShards?.forEach((suites, i) =>
      writeFileSync(join(dir, `test-results/jest-${i + 1}.json`), JSON.stringify(jestReport(dir, suites))),
    );
    if (reports.playwright)
      writeFileSync(join(dir, 'test-results/playwright.json'), JSON.stringify(reports.playwright));
    const script = `const t = await import(${JSON.stringify(MODULE)});
      process.exitCode = t.printSummary(t.summarize(t.readOutcomes())) ? 0 : 3;`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (run.status !== 0 && run.status !== 3) throw new Error(run.stderr);
    return { clean: run.status === 0, output: run.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const jestReport = (dir: string, suites: Suite[]) => ({
  testResults: suites.map((suite) => ({
    name: join(dir, suite.file),
    status: suite.status ?? 'passed',
    assertionResults: suite.tests.map((test) => ({ invocations: 1, ...test })),
  })),
});

/** Every test the SQLite pass skips on purpose, skipped as listed (so that no entry is stale). */
function intendedSqliteSkips(): Suite[] {
  return INTENDED.filter((entry) => entry.run === 'sqlite').map((entry) => {
    const [file, ...titles] = entry.test.split(' › ');
    return {
      file,
      tests: [{ ancestorTitles: titles.slice(0, -1), title: titles.at(-1)!, status: 'pending' as const }],
    };
  });
}

describe('the closing tally of npm test', () => {
  const pass = (title: string): JestTest => ({ ancestorTitles: ['a suite'], title, status: 'passed' });

  it('counts passed, failed, skipped and flaky tests on one closing line, and is clean with the listed skips', () => {
    const { clean, output } = tally({
      jest: [{ file: 'server/a.spec.ts', tests: [pass('one'), pass('two')] }, ...intendedSqliteSkips()],
    });
    const skips = INTENDED.filter((entry) => entry.run === 'sqlite').length;
    expect(output.trim().split('\n').at(-1)).toBe(`tests: 2 passed, 0 failed, ${skips} skipped, 0 flaky`);
    expect(clean).toBe(true);
  });

  it('fails on a skip that the list does not name, and names it', () => {
    const { clean, output } = tally({
      jest: [
        ...intendedSqliteSkips(),
        {
          file: 'server/a.spec.ts',
          tests: [pass('one'), { ancestorTitles: ['a suite'], title: 'needs ffmpeg', status: 'pending' }],
        },
      ],
    });
    expect(clean).toBe(false);
    expect(output).toContain('Skipped, and not listed in scripts/intended-skips.json:');
    expect(output).toContain('[sqlite] server/a.spec.ts › a suite › needs ffmpeg');
  });

  it('fails on an entry of the list that its pass ran without skipping', () => {
    const { clean, output } = tally({
      jest: [{ file: 'server/a.spec.ts', tests: [pass('one')] }],
    });
    expect(clean).toBe(false);
    expect(output).toContain('Listed in scripts/intended-skips.json, but not skipped (update the list):');
  });

  it('adds up a pass run in shards, and a skip listed for the pass may sit in any shard', () => {
    const { clean, output } = tally({
      jestShards: [
        [{ file: 'server/a.spec.ts', tests: [pass('one')] }, ...intendedSqliteSkips()],
        [{ file: 'server/b.spec.ts', tests: [pass('two'), pass('three')] }],
      ],
    });
    const skips = INTENDED.filter((entry) => entry.run === 'sqlite').length;
    expect(output.trim().split('\n').at(-1)).toBe(`tests: 3 passed, 0 failed, ${skips} skipped, 0 flaky`);
    expect(clean).toBe(true);
  });

  it('repeats the first lines of each failure under its name', () => {
    const { output } = tally({
      jest: [
        ...intendedSqliteSkips(),
        {
          file: 'server/a.spec.ts',
          tests: [
            {
              ancestorTitles: [],
              title: 'broken',
              status: 'failed',
              failureMessages: [
                '\u001b[31mexpect(received).toBe(expected)\u001b[39m\n\nExpected: 413\nReceived: 0',
              ],
            },
          ],
        },
      ],
    });
    expect(output).toContain(
      '  [sqlite] server/a.spec.ts › broken\n      expect(received).toBe(expected)\n      Expected: 413\n      Received: 0\n',
    );
  });

  it('counts a failure, a suite that could not load, and a test that passed only on a retry', () => {
    const { clean, output } = tally({
      jest: [
        ...intendedSqliteSkips(),
        {
          file: 'server/a.spec.ts',
          tests: [
            { ...pass('retried'), invocations: 2 },
            { ancestorTitles: [], title: 'broken', status: 'failed' },
          ],
        },
        { file: 'server/b.spec.ts', status: 'failed', tests: [] },
      ],
      playwright: {
        suites: [
          {
            file: 'reader.spec.ts',
            specs: [{ title: 'plays', tests: [{ status: 'expected' }, { status: 'flaky' }] }],
          },
        ],
        errors: [{ message: 'global setup failed\nat …' }],
      },
    });
    expect(clean).toBe(false);
    expect(output).toContain('[sqlite] server/a.spec.ts › broken');
    expect(output).toContain('[sqlite] server/b.spec.ts (the file could not run)');
    expect(output).toContain('[browser] e2e: global setup failed');
    expect(output.trim().split('\n').at(-1)).toMatch(/^tests: 1 passed, 3 failed, \d+ skipped, 2 flaky$/);
  });
});
