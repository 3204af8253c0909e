import { Module } from '@nestjs/common';
import { ResetQuotesDataHandler } from './infrastructure/sandbox/quotes-sandbox.handlers';

/**
 * Test mode (issue 15, item 4) for the api app: the quotes context's published sandbox commands and
 * queries (copy of a live account's configuration into its sandbox, reset of a sandbox's data), run by
 * the operator API inside its own transaction.
 */
@Module({ providers: [ResetQuotesDataHandler] })
export class QuotesSandboxModule {}
