import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DealsReadModel, PIPELINE_HANDLERS, PipelineReadModel, PipelineRepository } from '@leadflow/pipeline-core';
import { PIPELINE_RECORDS } from './infrastructure/persistence/pipeline.records';
import { TypeOrmDealsReadModel } from './infrastructure/persistence/typeorm-deals.read-model';
import { TypeOrmPipelineReadModel } from './infrastructure/persistence/typeorm-pipeline.read-model';
import { TypeOrmPipelineRepository } from './infrastructure/persistence/typeorm-pipeline.repository';
import { PipelineController } from './interface/http/pipeline.controller';

/**
 * Pipelines, stages and deals for the api app: the published provisioning command and queries, and the
 * public routes `/v1/pipeline/stages` and `/v1/pipeline/deals…` (the contact-side writes of a deal go
 * through the contacts context's published commands).
 */
@Module({
  imports: [TypeOrmModule.forFeature(PIPELINE_RECORDS)],
  controllers: [PipelineController],
  providers: [
    ...PIPELINE_HANDLERS,
    { provide: PipelineRepository, useClass: TypeOrmPipelineRepository },
    { provide: PipelineReadModel, useClass: TypeOrmPipelineReadModel },
    { provide: DealsReadModel, useClass: TypeOrmDealsReadModel },
  ],
})
export class PipelineHttpModule {}
