const preset = require('./jest.preset');

/**
 * End-to-end tier (`npm run test:e2e`, Nx target `e2e`): `*.e2e-spec.ts`, the api (and worker) driven over
 * HTTP on real PostgreSQL and Redis, browser suites included.
 */
module.exports = {
  ...preset,
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/tools/jest/global-setup.ts',
  globalTeardown: '<rootDir>/tools/jest/global-teardown.ts',
  testTimeout: 90000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};
