/** Unit specs sit beside the code; API tests boot the real app on a temporary SQLite file and folder. */
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'server/tsconfig.json' }],
};

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/server', '<rootDir>/site/lib', '<rootDir>/scripts'],
      testMatch: ['**/*.spec.ts'],
      transform,
    },
    {
      displayName: 'api',
      testEnvironment: 'node',
      roots: ['<rootDir>/server/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      transform,
    },
  ],
};
