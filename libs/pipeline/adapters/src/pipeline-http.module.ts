import { Module } from '@nestjs/common';
import { PipelineController } from './interface/http/pipeline.controller';
import { PipelineCoreModule } from './pipeline-core.module';

/**
 * Pipelines, stages and deals for the api app: the published provisioning command and queries, and the
 * public routes `/v1/pipeline/stages` and `/v1/pipeline/deals…` (the contact-side writes of a deal go
 * through the contacts context's published commands). Handlers and ports come from PipelineCoreModule.
 */
@Module({
  imports: [PipelineCoreModule],
  controllers: [PipelineController],
})
export class PipelineHttpModule {}
