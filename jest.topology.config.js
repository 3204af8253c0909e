const preset = require('./jest.preset');

/**
 * Topology tier (`npm run test:topology`, also run by `npm test` after the main run): `*.topology-spec.ts`,
 * the production layout built from Debian packages on one machine (PostgreSQL primary + streaming replica,
 * PgBouncer, Redis Cluster 3+3, two nodes as `npm start` runs them behind HAProxy). Every server is the
 * suite's own, so no globalSetup; one file at a time.
 */
module.exports = {
  ...preset,
  rootDir: __dirname,
  roots: ['<rootDir>/apps'],
  testMatch: ['**/*.topology-spec.ts'],
  testTimeout: 420000,
  maxWorkers: 1,
};
