// `npm test`: the whole suite in one command. Build if needed, then lint, type-check, unit and API
// tests (Jest), the media-related API tests again with media in an S3 bucket (s3rver), and the browser
// journeys (Playwright in Debian's Chromium).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { findChromium, INSTALL_HINT } from './find-chromium.mjs';

/** The API tests that store, serve or read media: run a second time against an S3 bucket. */
const S3_FILES = [
  'admin-books',
  'admin-chapters-phrases',
  'reading',
  'chapter-import',
  'recording-import',
  'book-transfer',
  'words-anki',
]
  .map((name) => `server/test/${name}.e2e-spec.ts`)
  .join(' ');

const steps = [
  ['Build', 'node scripts/ensure-build.mjs'],
  ['Lint', 'npm run --silent lint'],
  ['Type-check', 'npm run --silent typecheck'],
  ['Unit and API tests', 'npx jest --ci --json --outputFile=test-results/jest.json'],
  // The same test files, with media and staged imports in a bucket instead of STORAGE_DIR.
  [
    'Media API tests on S3',
    `npx jest --ci --json --outputFile=test-results/jest-s3.json ${S3_FILES}`,
    { TEST_MEDIA_STORE: 's3' },
  ],
  ['Browser journeys', 'npx playwright test'],
];

// Jest writes its JSON report here but does not create the folder.
mkdirSync('test-results', { recursive: true });

const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };
for (const [name, command, extraEnv = {}] of steps) {
  if (name === 'Browser journeys') {
    const chromium = findChromium();
    if (!chromium) {
      console.error(INSTALL_HINT);
      process.exit(1);
    }
    env.CHROMIUM_PATH = chromium;
  }
  console.log(`\n▶ ${name}: ${command}`);
  const result = spawnSync(command, { shell: true, stdio: 'inherit', env: { ...env, ...extraEnv } });
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed (${command})`);
    process.exit(result.status ?? 1);
  }
}
const jest = JSON.parse(readFileSync('test-results/jest.json', 'utf8'));
const jestS3 = JSON.parse(readFileSync('test-results/jest-s3.json', 'utf8'));
const browser = JSON.parse(readFileSync('test-results/playwright.json', 'utf8')).stats;
const passed = jest.numPassedTests + jestS3.numPassedTests + browser.expected + browser.flaky;
const failed = jest.numFailedTests + jestS3.numFailedTests + browser.unexpected;
console.log('\n✔ All checks passed');
console.log(`tests: ${passed} passed, ${failed} failed`);
