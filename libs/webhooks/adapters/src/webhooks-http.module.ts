import { Module } from '@nestjs/common';

/** The webhooks context's controllers and handlers, imported by the api app. */
@Module({})
export class WebhooksHttpModule {}
