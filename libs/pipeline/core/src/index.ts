export * from './application/pipeline-core.providers';
export * from './application/ports/pipeline.read-model.port';
export * from './application/ports/pipeline.repository.port';
export * from './domain/pipeline.aggregate';
export * from './domain/pipeline.errors';
