export * from './test-services';
export * from './smtp-sink';
export * from './redis-proxy';
