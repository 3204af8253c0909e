import { Module } from '@nestjs/common';

/** The quotes context's controllers and handlers, imported by the api app. */
@Module({})
export class QuotesHttpModule {}
