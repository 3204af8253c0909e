import { Module } from '@nestjs/common';

/** The pipeline context runs no background jobs yet (stage automations come with the deals). */
@Module({})
export class PipelineJobsModule {}
