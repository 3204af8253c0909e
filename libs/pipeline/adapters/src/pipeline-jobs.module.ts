import { Module } from '@nestjs/common';
import { PipelineCoreModule } from './pipeline-core.module';

/**
 * The pipeline context in the worker: no background jobs yet (stage automations come with the deals);
 * the handlers and ports of PipelineCoreModule, so worker-side callers can dispatch its published queries.
 */
@Module({ imports: [PipelineCoreModule] })
export class PipelineJobsModule {}
