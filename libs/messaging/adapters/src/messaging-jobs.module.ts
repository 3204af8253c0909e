import { Module } from '@nestjs/common';

/** The messaging context runs no background jobs yet (email dispatch comes with outgoing emails). */
@Module({})
export class MessagingJobsModule {}
