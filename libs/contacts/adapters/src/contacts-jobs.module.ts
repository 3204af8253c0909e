import { Module } from '@nestjs/common';

/** The contacts context runs no background jobs yet. */
@Module({})
export class ContactsJobsModule {}
