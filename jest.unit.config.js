const preset = require('./jest.preset');

/**
 * Unit tier (`npm run test:unit`, Nx target `test`): `*.spec.ts` only, pure domain and handler logic with
 * in-memory ports. No global setup: no PostgreSQL, no Redis, nothing to start; runs in seconds. A unit
 * spec that opens a connection fails here on purpose (it belongs to the integration tier).
 */
module.exports = {
  ...preset,
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts'],
  testTimeout: 10000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};
