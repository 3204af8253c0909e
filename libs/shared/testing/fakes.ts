/**
 * `@leadflow/shared-testing/fakes`: in-memory fakes of the kernel's ports for unit tests. A separate entry
 * from the package's index, which loads PostgreSQL, Redis and SMTP helpers that unit tests never need.
 */
export * from './src/in-memory-journal';
