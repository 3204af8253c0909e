import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUOTE_EXPIRY_QUEUE } from './interface/jobs/expire-quotes.job';
import { ExpireQuotesProcessor } from './interface/jobs/expire-quotes.processor';
import { QuoteExpiryScheduler } from './interface/jobs/quote-expiry.scheduler';
import { QuotesCoreModule } from './quotes-core.module';

/** The quotes context for the worker: the daily expiry (repeatable job); handlers and ports from QuotesCoreModule. Needs QueueModule.forRoot. */
@Module({
  imports: [BullModule.registerQueue({ name: QUOTE_EXPIRY_QUEUE }), QuotesCoreModule],
  providers: [ExpireQuotesProcessor, QuoteExpiryScheduler],
})
export class QuotesJobsModule {}
