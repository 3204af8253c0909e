import { PipelineInit1767000000400 } from './infrastructure/persistence/migrations/1767000000400-pipeline-init';
import { PipelineKeysByAccount1800000000400 } from './infrastructure/persistence/migrations/1800000000400-pipeline-keys-by-account';

export * from './pipeline-http.module';
export * from './pipeline-jobs.module';

/** Migrations of the `pipeline` schema, in order. */
export const pipelineMigrations = [PipelineInit1767000000400, PipelineKeysByAccount1800000000400];
