import { PipelineInit1767000000400 } from './infrastructure/persistence/migrations/1767000000400-pipeline-init';

export * from './pipeline-http.module';
export * from './pipeline-jobs.module';

/** Migrations of the `pipeline` schema, in order. */
export const pipelineMigrations = [PipelineInit1767000000400];
