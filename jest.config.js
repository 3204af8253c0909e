const preset = require('./jest.preset');

/**
 * Root Jest configuration used by `npm test`: unit tests (`*.spec.ts`), integration tests
 * (`*.integration-spec.ts`) and end-to-end tests (`*.e2e-spec.ts`) against real PostgreSQL and Redis.
 */
module.exports = {
  ...preset,
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts', '**/*.integration-spec.ts', '**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/tools/jest/global-setup.ts',
  globalTeardown: '<rootDir>/tools/jest/global-teardown.ts',
  testTimeout: 90000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};
