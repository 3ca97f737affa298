// The closing tally of `npm test`, read from the JSON reports its steps write. A skipped test is only
// acceptable when scripts/intended-skips.json names it with its reason: a skip that nobody chose (a
// missing tool, a condition gone wrong) would otherwise pass unnoticed inside a green run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Each pass of the suite and the name of the report it writes in test-results/: `jest.json`, or
 * `jest-1.json`, `jest-2.json`… when the pass runs in shards (scripts/test.mjs).
 */
export const REPORTS = { sqlite: 'jest', postgres: 'jest-postgres', browser: 'playwright' };
const RESULTS = 'test-results';

/** The report files of one pass, whole or in shards. */
export function reportFiles(run) {
  if (!existsSync(RESULTS)) return [];
  const name = new RegExp(`^${REPORTS[run]}(-\\d+)?\\.json$`);
  return readdirSync(RESULTS)
    .filter((file) => name.test(file))
    .sort()
    .map((file) => join(RESULTS, file));
}

const INTENDED = new URL('./intended-skips.json', import.meta.url);

/** How much of a failure's message the closing tally repeats: a CI log is often shown by its end alone. */
const WHY_LINES = 12;
// eslint-disable-next-line no-control-regex
const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');
const firstLines = (text) =>
  plain(text ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, WHY_LINES)
    .join('\n');

/** One outcome per test: passed (first try), flaky (passed on a retry), failed or skipped. */
function jestOutcomes(report, run) {
  const outcomes = [];
  for (const suite of report.testResults) {
    const file = relative(process.cwd(), suite.name);
    // A suite that cannot load (a syntax error, a throwing import) has no tests to count: it is a failure.
    if (suite.assertionResults.length === 0 && suite.status === 'failed')
      outcomes.push({ run, name: `${file} (the file could not run)`, status: 'failed' });
    for (const test of suite.assertionResults) {
      const name = [file, ...test.ancestorTitles, test.title].join(' › ');
      const status =
        test.status === 'passed'
          ? test.invocations > 1
            ? 'flaky'
            : 'passed'
          : test.status === 'failed'
            ? 'failed'
            : 'skipped'; // pending (skip), todo, disabled
      outcomes.push({
        run,
        name,
        status,
        why: status === 'failed' ? firstLines(test.failureMessages?.[0]) : '',
      });
    }
  }
  return outcomes;
}

function playwrightOutcomes(report, run) {
  const outcomes = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs) {
      for (const test of spec.tests) {
        const status = { expected: 'passed', unexpected: 'failed' }[test.status] ?? test.status;
        const error = test.results?.at(-1)?.errors?.[0];
        const why = status === 'failed' ? firstLines(error?.message ?? error?.stack) : '';
        outcomes.push({ run, name: [...titles, spec.title].join(' › '), status, why });
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const file of report.suites) walk(file, [`e2e/${file.file}`]);
  // Errors outside any test (a global setup, a file that does not load) fail the run without a test.
  for (const error of report.errors ?? [])
    outcomes.push({ run, name: `e2e: ${error.message?.split('\n')[0]}`, status: 'failed' });
  return outcomes;
}

/** The outcomes of the passes whose report exists (a run stopped early has fewer). */
export function readOutcomes() {
  const outcomes = [];
  const runs = [];
  for (const run of Object.keys(REPORTS)) {
    const files = reportFiles(run);
    if (files.length > 0) runs.push(run);
    for (const file of files) {
      const report = JSON.parse(readFileSync(file, 'utf8'));
      outcomes.push(...(run === 'browser' ? playwrightOutcomes(report, run) : jestOutcomes(report, run)));
    }
  }
  return { runs, outcomes };
}

/**
 * The tally and what is wrong with the skips: skipped tests the list does not name, and entries of the
 * list for a pass that ran without skipping them (renamed, removed, or running now: the list must follow).
 */
export function summarize({ runs, outcomes }) {
  const intended = JSON.parse(readFileSync(INTENDED, 'utf8')).skips;
  const key = (entry) => `${entry.run}: ${entry.test ?? entry.name}`;
  const allowed = new Set(intended.map(key));
  const byStatus = (status) => outcomes.filter((o) => o.status === status);
  const skipped = byStatus('skipped');
  const skippedKeys = new Set(skipped.map(key));
  return {
    passed: byStatus('passed').length,
    failed: byStatus('failed'),
    skipped,
    flaky: byStatus('flaky'),
    unexpectedSkips: skipped.filter((o) => !allowed.has(key(o))),
    staleEntries: intended.filter((e) => runs.includes(e.run) && !skippedKeys.has(key(e))),
  };
}

/** Prints the names behind the figures, then the closing line; returns whether the tally is clean. */
export function printSummary(summary) {
  const list = (title, items) => {
    if (items.length === 0) return;
    console.log(`\n${title}`);
    for (const item of items) {
      console.log(`  [${item.run}] ${item.test ?? item.name}`);
      if (item.why) console.log(item.why.replace(/^/gm, '      '));
    }
  };
  list('Failed:', summary.failed);
  list('Flaky (failed, then passed on a retry):', summary.flaky);
  list('Skipped, and not listed in scripts/intended-skips.json:', summary.unexpectedSkips);
  list('Listed in scripts/intended-skips.json, but not skipped (update the list):', summary.staleEntries);
  const { passed, failed, skipped, flaky } = summary;
  console.log(
    `\ntests: ${passed} passed, ${failed.length} failed, ${skipped.length} skipped, ${flaky.length} flaky`,
  );
  return failed.length === 0 && summary.unexpectedSkips.length === 0 && summary.staleEntries.length === 0;
}
