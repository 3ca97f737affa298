import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { disableFeaturesSwitch } from './e2e/helpers/browser-features';
import { EXPECT_MS, JOURNEY_MS, SERVER_START_MS } from './scripts/test-limits.cjs';

const port = Number(process.env.E2E_PORT ?? 4321);
// npm test runs the journeys in shards side by side (scripts/test.mjs), each with its own servers, port,
// report and artifacts: E2E_SHARD names the shard. Playwright empties its outputDir when it starts.
const shard = process.env.E2E_SHARD ? `-${process.env.E2E_SHARD}` : '';
const stripePort = port + 1;
const stripeUrl = `http://127.0.0.1:${stripePort}`;
process.env.E2E_STRIPE_URL = stripeUrl;
// One throw-away installation per run: the demo seed gives every journey the same starting catalogue.
// The config is read again by each worker, which must share the runner's folder, not make its own.
if (!process.env.E2E_STORAGE_DIR) {
  process.env.E2E_STORAGE_DIR = mkdtempSync(join(tmpdir(), 'lingonovel-e2e-'));
  // Only a folder made here is removed at the end (e2e/global-teardown.ts), never one passed in.
  process.env.E2E_STORAGE_DIR_TEMPORARY = '1';
}
const storageDir = process.env.E2E_STORAGE_DIR;
// The servers the journeys start never read the developer's own .env (it may name a real database or
// bucket): an empty file stands in. The webServer entries and the journeys' own servers inherit it.
process.env.ENV_FILE ??= '/dev/null';

export default defineConfig({
  testDir: './e2e',
  outputDir: `./test-results/artifacts${shard}`,
  globalTeardown: './e2e/global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  // No retries: a test that passes only on a second try is a failure to fix, not to hide.
  retries: 0,
  reporter: [
    [process.env.CI ? 'line' : 'list'],
    ['json', { outputFile: `test-results/playwright${shard}.json` }],
  ],
  // npm test runs the journeys beside the PostgreSQL pass of the API tests, on two cores: a page load and
  // an axe audit can take 10 to 15 s each there. Long journeys set their own, longer limits.
  // The limits are scaled by TEST_TIME_SCALE (scripts/test-limits.cjs). A journey waits for what it expects
  // (a navigation, a message) up to EXPECT_MS rather than Playwright's fixed 5 s.
  timeout: JOURNEY_MS,
  expect: { timeout: EXPECT_MS },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A failed journey keeps its trace (each step with its error, the network, the console) and a
    // screenshot of where it stopped. The DOM at every step and a screencast would be recorded for every
    // passing journey too: about a tenth of the browser's CPU each, for nothing (docs/testing.md).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
    // The service worker (docs/offline.md) only where a journey is about it (e2e/offline.spec.ts): it keeps
    // files and pages, and answers some requests itself, which page.route would then not see.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        // The clips play in real time, and nobody listens: the browser skips mixing them to a speaker.
        '--mute-audio',
        // No address bar popup preloaded into each context's window (e2e/helpers/browser-features.ts).
        disableFeaturesSwitch(),
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  // Payments go to a Stripe stand-in on loopback, so the checkout journeys reach a real "hosted" page.
  webServer: [
    {
      command: `node scripts/stripe-stand-in.cjs --port ${stripePort}`,
      url: `${stripeUrl}/__calls`,
      reuseExistingServer: false,
      timeout: SERVER_START_MS,
    },
    {
      command: 'node dist/app/server/main.js --demo',
      url: `http://127.0.0.1:${port}/api/v1/health`,
      reuseExistingServer: false,
      timeout: SERVER_START_MS,
      env: {
        ENV_FILE: process.env.ENV_FILE,
        PORT: String(port),
        HOST: '127.0.0.1',
        STORAGE_DIR: storageDir,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        STRIPE_SECRET_KEY: 'sk_test_e2e',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e',
        STRIPE_WEBHOOK_SECRET: 'whsec_e2e',
        STRIPE_PRICE_ID: 'price_e2e_premium_plus',
        STRIPE_API_BASE: stripeUrl,
        // The aligned import's journey sees a job's progress with a recording of under a minute.
        ALIGN_INLINE_SECONDS: '20',
      },
    },
  ],
});
