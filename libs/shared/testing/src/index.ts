export * from './test-services';
export * from './smtp-sink';
export * from './redis-proxy';
export * from './in-memory-journal';
export * from './private-redis-cluster';
export * from './private-postgres-replica';
