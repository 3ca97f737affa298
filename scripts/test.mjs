// `npm test`: the whole suite in one command. Build if needed, then, four tasks at a time: the browser
// journeys (Playwright in Debian's Chromium) in shards, the unit and API tests (Jest) on SQLite with media
// in STORAGE_DIR, the API tests again on a throw-away PostgreSQL cluster (Debian's postgresql) with media
// in an S3 bucket (s3rver, started by the tests themselves), the container image, lint with the
// type-check. docs/testing.md, "Where the time goes", has the figures.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { findChromium, INSTALL_HINT } from './find-chromium.mjs';
import { FFMPEG_HINT, findFfmpeg } from './find-ffmpeg.cjs';
import { findPostgres, POSTGRES_HINT, startPostgres } from './postgres.mjs';
import { cleanUp, onCleanup, run, stoppedExitCode, stopOnSignals } from './processes.mjs';
import { coverageProblems, readShapes } from './sql-coverage.mjs';
import { printSummary, readOutcomes, reportFiles, REPORTS, summarize } from './test-report.mjs';

/** Seconds all the cores have been busy since boot (/proc/stat: user, nice, system, irq, softirq, steal). */
function machineCpuSeconds() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return (user + nice + system + irq + softirq + steal) / 100;
}

/** A check that failed: the run stops, cleans up, and says why. */
class Failure extends Error {}

const chromium = findChromium();
const ffmpeg = findFfmpeg();
const missing = [
  [chromium, INSTALL_HINT],
  [ffmpeg.bin, `ffmpeg did not answer: ${ffmpeg.problem}. ${FFMPEG_HINT}`],
  [findPostgres(), POSTGRES_HINT],
  // The EPUB export's tests run Debian's EPUBCheck (server/test/epub-export.e2e-spec.ts).
  [existsSync('/usr/share/java/epubcheck.jar'), 'EPUBCheck is missing: sudo apt-get install -y epubcheck'],
  // The aligner's tests: eSpeak NG is its reference voice; Festival's voices read the test recordings
  // (server/test/alignment-accuracy.e2e-spec.ts).
  [
    ['espeak-ng', 'festival'].every((bin) => spawnSync(bin, ['--version']).status === 0) &&
      existsSync('/usr/share/festival/voices/english/kal_diphone') &&
      existsSync('/usr/share/festival/voices/italian/lp_diphone'),
    'The aligner needs eSpeak NG, and its tests Festival with two voices: sudo apt-get install -y espeak-ng festival festvox-kallpc16k festvox-italp16k',
  ],
  // The deployment checks: deploy/nginx.conf in front of the server with a self-signed certificate
  // (e2e/tls-proxy.spec.ts), the systemd unit and the compose setups (deploy/*.spec.ts), and the image
  // (deploy/test-container.sh).
  [
    [
      'nginx -v',
      'openssl version',
      'systemd-analyze --version',
      'docker-compose version',
      'podman --version',
      'runc --version',
      'mmdebstrap --version',
    ].every(
      (command) =>
        spawnSync(command, {
          shell: true,
          stdio: 'ignore',
          env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin` },
        }).status === 0,
    ),
    'The deployment checks need nginx, OpenSSL, systemd-analyze, docker-compose, podman, runc and mmdebstrap: sudo apt-get install -y nginx openssl systemd docker-compose podman runc mmdebstrap',
  ],
].filter(([found]) => !found);
if (missing.length) {
  for (const [, hint] of missing) console.error(hint);
  process.exit(1);
}

// Jest writes its JSON report here but does not create the folder. A previous run's reports must not
// be counted as this run's.
mkdirSync('test-results', { recursive: true });
for (const run of Object.keys(REPORTS)) for (const file of reportFiles(run)) rmSync(file, { force: true });
/** Where the SQLite pass records each API spec's SQL (scripts/sql-shapes.cjs). */
const SQL_LOG = 'test-results/sql';
rmSync(SQL_LOG, { recursive: true, force: true });
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CHROMIUM_PATH: chromium };

/**
 * The API tests' passes run in shards (Jest's --shard, by file), so that the lanes below end together:
 * one long pass would leave the other core idle at the end.
 */
const SQLITE_SHARDS = 4;
const POSTGRES_SHARDS = 5;

/**
 * The browser journeys mostly wait (clips play in real time, timers run out, pages load): alone they keep
 * about two thirds of one core busy. So they run in shards of their own beside two lanes of CPU-bound
 * work, each shard with its own servers, port, report and artifacts (playwright.config.ts), and the cores
 * stay full.
 */
const JOURNEY_SHARDS = 2;
/** Tasks at once: the journeys' shards and two more, on two cores (docs/testing.md, "Where the time goes"). */
const LANES = JOURNEY_SHARDS + 2;
const journeys = Array.from({ length: JOURNEY_SHARDS }, (_, i) => [
  `Browser journeys, part ${i + 1} of ${JOURNEY_SHARDS}`,
  `npx playwright test --shard=${i + 1}/${JOURNEY_SHARDS}`,
  // Each shard's demo server on its own port, the Stripe stand-in on the next one.
  { E2E_SHARD: String(i + 1), E2E_PORT: String(4321 + 10 * i) },
]);

/**
 * API specs the PostgreSQL pass leaves out: those that never open the tests' database nor their bucket
 * (scripts/engine-free-specs.json), which it would run exactly as the SQLite pass does, and those whose
 * every statement other specs send there (scripts/sqlite-only-specs.json, checked after the run).
 */
const readList = (name) => JSON.parse(readFileSync(new URL(name, import.meta.url))).specs;
const ENGINE_FREE = readList('./engine-free-specs.json');
const SQLITE_ONLY = Object.keys(readList('./sqlite-only-specs.json'));
const NOT_ON_POSTGRES = [...ENGINE_FREE, ...SQLITE_ONLY];
const notOnPostgres = `--testPathIgnorePatterns '/node_modules/' 'server/test/(${NOT_ON_POSTGRES.join('|')})\\.e2e-spec\\.ts$'`;

/** "95 s, 160 CPU-s": a task's wall time, and the CPU time of it and the processes it waited for. */
const took = (started, cpu) =>
  `${Math.round((Date.now() - started) / 1000)} s${cpu === null ? '' : `, ${Math.round(cpu)} CPU-s`}`;

async function runStep(name, command) {
  console.log(`\n▶ ${name}: ${command}`);
  const started = Date.now();
  const { status, cpu } = await run(command, { env });
  if (status !== 0) throw new Failure(`✖ ${name} failed (${command})`);
  console.log(`✔ ${name} (${took(started, cpu)})`);
}

/** Runs a task with its output kept and printed whole when it ends, so that logs never interleave. */
async function runCaptured([name, command, extraEnv = {}]) {
  console.log(`\n▶ ${name}: ${command} (running alongside)`);
  const started = Date.now();
  const { status, output, cpu } = await run(command, { env: { ...env, ...extraEnv }, capture: true });
  console.log(`\n── ${name} ──\n${output}`);
  console.log(status === 0 ? `✔ ${name} (${took(started, cpu)})` : `✖ ${name} failed (${command})`);
  return status === 0;
}

/**
 * Lanes: each takes the next task as soon as it is free, so the longest tasks go first and the shards
 * fill in around them. Every task runs even after a failure, so that the closing tally names every
 * failing test. Answers whether all passed.
 */
async function runInLanes(tasks, lanes) {
  const queue = [...tasks];
  const results = [];
  const lane = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) results.push(await runCaptured(task));
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return !results.includes(false);
}

const shards = (count, name, command, extraEnv = {}) =>
  Array.from({ length: count }, (_, i) => [
    `${name}, part ${i + 1} of ${count}`,
    `${command} --shard=${i + 1}/${count} --json --outputFile=test-results/${
      extraEnv.TEST_DATABASE_URL ? REPORTS.postgres : REPORTS.sqlite
    }-${i + 1}.json`,
    extraEnv,
  ]);

async function main() {
  await runStep('Build', 'node scripts/ensure-build.mjs');
  const postgres = await startPostgres();
  onCleanup(() => postgres.stop());
  const onPostgres = { TEST_DATABASE_URL: postgres.url, TEST_MEDIA_STORE: 's3' };
  // Four lanes take the tasks in this order, each the next one as soon as it is free: the two journeys
  // shards (mostly waiting) beside two lanes of CPU-bound work, then, once the journeys end, four lanes of
  // it, so that the cores stay busy to the end when a task waits for a child, a timer or the database.
  // The image comes early (minutes of building, some of them downloads, on a machine without its base
  // image), the quick lint last.
  const onPostgresShards = shards(
    POSTGRES_SHARDS,
    'API tests (PostgreSQL and S3)',
    `npx jest --ci --selectProjects api ${notOnPostgres}`,
    onPostgres,
  );
  const passed = await runInLanes(
    [
      ...journeys,
      ...onPostgresShards.slice(0, 2),
      ['Container image', 'bash deploy/test-container.sh'],
      ...onPostgresShards.slice(2),
      ...shards(SQLITE_SHARDS, 'Unit and API tests (SQLite)', 'npx jest --ci', { TEST_SQL_LOG: SQL_LOG }),
      // The build has just type-checked the server (tsc): the site's scripts and pages remain.
      ['Lint and type-check', 'npm run --silent lint && npm run --silent typecheck:site'],
    ],
    LANES,
  );
  if (!passed) throw new Failure('✖ Some checks failed');
  // A spec with tests the PostgreSQL pass skips may send a statement on SQLite only in those.
  const partlyOnPostgres = JSON.parse(readFileSync(new URL('./intended-skips.json', import.meta.url)))
    .skips.filter((skip) => skip.run === 'postgres')
    .map((skip) => /^server\/test\/(.+)\.e2e-spec\.ts › /.exec(skip.test)[1]);
  const problems = coverageProblems(readShapes(SQL_LOG), SQLITE_ONLY, [
    ...NOT_ON_POSTGRES,
    ...partlyOnPostgres,
  ]);
  if (problems.length)
    throw new Failure(
      `✖ SQL that only specs of scripts/sqlite-only-specs.json send, so PostgreSQL never sees it: take the spec off the list, or send the statement from a spec both passes run.\n  ${problems.join('\n  ')}`,
    );
  console.log(`✔ The SQLite-only specs send no SQL the PostgreSQL pass misses (${SQLITE_ONLY.length} specs)`);
}

stopOnSignals();
const machineAtStart = machineCpuSeconds();
const startedAt = Date.now();
let failure = null;
try {
  await main();
} catch (error) {
  failure = error instanceof Failure ? error.message : `✖ ${error.stack ?? error}`;
}
await cleanUp();
// The figure docs/testing.md compares runs by: all the cores' busy time, whatever used it (the database
// cluster, the image build's containers and anything else running on the machine included).
console.log(
  `\nThe machine: ${Math.round(machineCpuSeconds() - machineAtStart)} CPU-s busy in ${Math.round((Date.now() - startedAt) / 1000)} s`,
);
if (stoppedExitCode()) {
  console.error('Stopped; cleaned up.');
  process.exit(stoppedExitCode());
}
// The tally of whatever ran, even when a check failed, so the failing tests are named at the end.
const tallied = Object.keys(REPORTS).some((run) => reportFiles(run).length > 0);
const clean = tallied && printSummary(summarize(readOutcomes()));
if (failure) console.error(`\n${failure}`);
else if (!clean)
  console.error('\n✖ Some tests failed, or were skipped without being listed in scripts/intended-skips.json');
else console.log('\n✔ All checks passed');
process.exitCode = failure || !clean ? 1 : 0;
