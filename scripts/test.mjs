// `npm test`: the whole suite in one command. Build if needed, then lint, type-check, unit and API tests
// (Jest) on SQLite with media in STORAGE_DIR, and then, side by side, the browser journeys (Playwright in
// Debian's Chromium) and the API tests again on the other configuration: a throw-away PostgreSQL cluster
// (Debian's postgresql) with media in an S3 bucket (s3rver, started by the tests themselves).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { findChromium, INSTALL_HINT } from './find-chromium.mjs';
import { FFMPEG_HINT, findFfmpeg } from './find-ffmpeg.mjs';
import { findPostgres, POSTGRES_HINT, startPostgres } from './postgres.mjs';
import { printSummary, readOutcomes, REPORTS, summarize } from './test-report.mjs';

const chromium = findChromium();
if (!chromium) fail(INSTALL_HINT);
if (!findFfmpeg()) fail(FFMPEG_HINT);
if (!findPostgres()) fail(POSTGRES_HINT);

// Jest writes its JSON report here but does not create the folder. A previous run's reports must not
// be counted as this run's.
mkdirSync('test-results', { recursive: true });
for (const file of Object.values(REPORTS)) rmSync(file, { force: true });
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CHROMIUM_PATH: chromium };

function fail(message) {
  console.error(message);
  process.exit(1);
}

function runStep(name, command, extraEnv = {}) {
  console.log(`\n▶ ${name}: ${command}`);
  const started = Date.now();
  const result = spawnSync(command, { shell: true, stdio: 'inherit', env: { ...env, ...extraEnv } });
  if (result.status !== 0) fail(`\n✖ ${name} failed (${command})`);
  console.log(`✔ ${name} (${Math.round((Date.now() - started) / 1000)} s)`);
}

/** Runs steps at once; each one's output is kept and printed whole when it ends, so logs never interleave. */
async function runTogether(steps) {
  const results = await Promise.all(
    steps.map(
      ([name, command, extraEnv = {}]) =>
        new Promise((resolve) => {
          console.log(`\n▶ ${name}: ${command} (running alongside)`);
          const started = Date.now();
          const child = spawn(command, { shell: true, env: { ...env, ...extraEnv } });
          let output = '';
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          child.on('close', (status) => {
            const seconds = Math.round((Date.now() - started) / 1000);
            console.log(`\n── ${name} ──\n${output}`);
            console.log(status === 0 ? `✔ ${name} (${seconds} s)` : `✖ ${name} failed (${command})`);
            resolve(status === 0);
          });
        }),
    ),
  );
  if (results.includes(false)) fail('\n✖ Some checks failed');
}

runStep('Build', 'node scripts/ensure-build.mjs');
runStep('Lint', 'npm run --silent lint');
runStep('Type-check', 'npm run --silent typecheck');
runStep('Unit and API tests (SQLite)', 'npx jest --ci --json --outputFile=test-results/jest.json');

const postgres = await startPostgres();
try {
  await runTogether([
    ['Browser journeys', 'npx playwright test'],
    [
      'API tests (PostgreSQL and S3)',
      'npx jest --ci --selectProjects api --json --outputFile=test-results/jest-postgres.json',
      { TEST_DATABASE_URL: postgres.url, TEST_MEDIA_STORE: 's3' },
    ],
  ]);
} finally {
  postgres.stop();
}

if (!printSummary(summarize(readOutcomes())))
  fail('\n✖ Some tests failed, or were skipped without being listed in scripts/intended-skips.json');
console.log('\n✔ All checks passed');
