const preset = require('./jest.preset');

/**
 * Integration tier (`npm run test:integration`, Nx target `integration`): `*.integration-spec.ts`, a
 * context's repositories and jobs on real PostgreSQL and Redis (testcontainers, else the local services),
 * without the HTTP app.
 */
module.exports = {
  ...preset,
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.integration-spec.ts'],
  globalSetup: '<rootDir>/tools/jest/global-setup.ts',
  globalTeardown: '<rootDir>/tools/jest/global-teardown.ts',
  testTimeout: 90000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};
