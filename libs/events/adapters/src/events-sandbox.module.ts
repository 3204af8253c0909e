import { Module } from '@nestjs/common';
import { EVENTS_SANDBOX_HANDLERS } from './infrastructure/sandbox/events-sandbox.handlers';

/**
 * Test mode (issue 15, item 4) for the api app: the events context's published sandbox commands and
 * queries (copy of a live account's configuration into its sandbox, reset of a sandbox's data), run by
 * the operator API inside its own transaction.
 */
@Module({ providers: [...EVENTS_SANDBOX_HANDLERS] })
export class EventsSandboxModule {}
