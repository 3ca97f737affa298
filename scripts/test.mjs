// `npm test`: the whole suite in one command. Build if needed, then lint, type-check, unit and API tests
// (Jest) on SQLite with media in STORAGE_DIR, and then, side by side, the browser journeys (Playwright in
// Debian's Chromium) and the API tests again on the other configuration: a throw-away PostgreSQL cluster
// (Debian's postgresql) with media in an S3 bucket (s3rver, started by the tests themselves).
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { findChromium, INSTALL_HINT } from './find-chromium.mjs';
import { FFMPEG_HINT, findFfmpeg } from './find-ffmpeg.mjs';
import { findPostgres, POSTGRES_HINT, startPostgres } from './postgres.mjs';
import { cleanUp, onCleanup, run, stoppedExitCode, stopOnSignals } from './processes.mjs';
import { printSummary, readOutcomes, REPORTS, summarize } from './test-report.mjs';

/** A check that failed: the run stops, cleans up, and says why. */
class Failure extends Error {}

const chromium = findChromium();
const missing = [
  [chromium, INSTALL_HINT],
  [findFfmpeg(), FFMPEG_HINT],
  [findPostgres(), POSTGRES_HINT],
  // The EPUB export's tests run Debian's EPUBCheck (server/test/epub-export.e2e-spec.ts).
  [existsSync('/usr/share/java/epubcheck.jar'), 'EPUBCheck is missing: sudo apt-get install -y epubcheck'],
].filter(([found]) => !found);
if (missing.length) {
  for (const [, hint] of missing) console.error(hint);
  process.exit(1);
}

// Jest writes its JSON report here but does not create the folder. A previous run's reports must not
// be counted as this run's.
mkdirSync('test-results', { recursive: true });
for (const file of Object.values(REPORTS)) rmSync(file, { force: true });
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CHROMIUM_PATH: chromium };

async function runStep(name, command) {
  console.log(`\n▶ ${name}: ${command}`);
  const started = Date.now();
  const { status } = await run(command, { env });
  if (status !== 0) throw new Failure(`✖ ${name} failed (${command})`);
  console.log(`✔ ${name} (${Math.round((Date.now() - started) / 1000)} s)`);
}

/** Runs steps at once; each one's output is kept and printed whole when it ends, so logs never interleave. */
async function runTogether(steps) {
  const results = await Promise.all(
    steps.map(async ([name, command, extraEnv = {}]) => {
      console.log(`\n▶ ${name}: ${command} (running alongside)`);
      const started = Date.now();
      const { status, output } = await run(command, { env: { ...env, ...extraEnv }, capture: true });
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`\n── ${name} ──\n${output}`);
      console.log(status === 0 ? `✔ ${name} (${seconds} s)` : `✖ ${name} failed (${command})`);
      return status === 0;
    }),
  );
  if (results.includes(false)) throw new Failure('✖ Some checks failed');
}

async function main() {
  await runStep('Build', 'node scripts/ensure-build.mjs');
  // Jest takes one core of two here (its default: cores − 1), so lint and the type-check use the other.
  await runTogether([
    ['Lint and type-check', 'npm run --silent lint && npm run --silent typecheck'],
    ['Unit and API tests (SQLite)', 'npx jest --ci --json --outputFile=test-results/jest.json'],
  ]);

  const postgres = await startPostgres();
  onCleanup(() => postgres.stop());
  await runTogether([
    ['Browser journeys', 'npx playwright test'],
    [
      'API tests (PostgreSQL and S3)',
      'npx jest --ci --selectProjects api --json --outputFile=test-results/jest-postgres.json',
      { TEST_DATABASE_URL: postgres.url, TEST_MEDIA_STORE: 's3' },
    ],
  ]);
}

stopOnSignals();
let failure = null;
try {
  await main();
} catch (error) {
  failure = error instanceof Failure ? error.message : `✖ ${error.stack ?? error}`;
}
await cleanUp();
if (stoppedExitCode()) {
  console.error('Stopped; cleaned up.');
  process.exit(stoppedExitCode());
}
// The tally of whatever ran, even when a check failed, so the failing tests are named at the end.
const tallied = Object.values(REPORTS).some((file) => existsSync(file));
const clean = tallied && printSummary(summarize(readOutcomes()));
if (failure) console.error(`\n${failure}`);
else if (!clean)
  console.error('\n✖ Some tests failed, or were skipped without being listed in scripts/intended-skips.json');
else console.log('\n✔ All checks passed');
process.exitCode = failure || !clean ? 1 : 0;
