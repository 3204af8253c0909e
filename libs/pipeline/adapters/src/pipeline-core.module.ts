import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DealsReadModel, PIPELINE_HANDLERS, PipelineReadModel, PipelineRepository } from '@leadflow/pipeline-core';
import { PIPELINE_RECORDS } from './infrastructure/persistence/pipeline.records';
import { TypeOrmDealsReadModel } from './infrastructure/persistence/typeorm-deals.read-model';
import { TypeOrmPipelineReadModel } from './infrastructure/persistence/typeorm-pipeline.read-model';
import { TypeOrmPipelineRepository } from './infrastructure/persistence/typeorm-pipeline.repository';

/**
 * The pipeline context's one core module: every handler ({@link PIPELINE_HANDLERS}, listed once in core)
 * and every port binding, imported by both PipelineHttpModule and PipelineJobsModule.
 */
@Module({
  imports: [TypeOrmModule.forFeature(PIPELINE_RECORDS)],
  providers: [
    ...PIPELINE_HANDLERS,
    { provide: PipelineRepository, useClass: TypeOrmPipelineRepository },
    { provide: PipelineReadModel, useClass: TypeOrmPipelineReadModel },
    { provide: DealsReadModel, useClass: TypeOrmDealsReadModel },
  ],
})
export class PipelineCoreModule {}
