export * from './test-services';
export * from './smtp-sink';
