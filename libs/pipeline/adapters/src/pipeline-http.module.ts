import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PIPELINE_HANDLERS, PipelineReadModel, PipelineRepository } from '@leadflow/pipeline-core';
import { PIPELINE_RECORDS } from './infrastructure/persistence/pipeline.records';
import { TypeOrmPipelineReadModel } from './infrastructure/persistence/typeorm-pipeline.read-model';
import { TypeOrmPipelineRepository } from './infrastructure/persistence/typeorm-pipeline.repository';

/**
 * Pipelines and stages for the api app: the published provisioning command and queries. The public
 * deal and stage routes (`/v1/pipeline/...`) come with the deals.
 */
@Module({
  imports: [TypeOrmModule.forFeature(PIPELINE_RECORDS)],
  providers: [
    ...PIPELINE_HANDLERS,
    { provide: PipelineRepository, useClass: TypeOrmPipelineRepository },
    { provide: PipelineReadModel, useClass: TypeOrmPipelineReadModel },
  ],
})
export class PipelineHttpModule {}
