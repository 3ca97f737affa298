/** Unit specs sit beside the code; API tests boot the real app on a temporary SQLite file and folder. */
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'server/tsconfig.json' }],
};

const { SERVER_START_MS } = require('./scripts/test-limits.cjs');

// Servers and tools the tests start never read the developer's own .env (which may name a real database
// or bucket): an empty file stands in, unless a test names another. Jest's workers inherit it.
process.env.ENV_FILE ??= '/dev/null';

/** @type {import('jest').Config} */
module.exports = {
  // Jest's hooks take the tests' limit: every API spec starts the app in its beforeAll (scripts/test-limits.cjs).
  testTimeout: SERVER_START_MS,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/server', '<rootDir>/site/lib', '<rootDir>/scripts', '<rootDir>/deploy'],
      testMatch: ['**/*.spec.ts'],
      transform,
    },
    {
      displayName: 'api',
      testEnvironment: 'node',
      roots: ['<rootDir>/server/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      // Records each spec's SQL when npm test asks (TEST_SQL_LOG): scripts/sql-coverage.mjs.
      setupFilesAfterEnv: ['<rootDir>/server/test/sql-log.setup.ts'],
      transform,
    },
  ],
};
