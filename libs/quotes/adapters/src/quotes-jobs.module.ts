import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUOTES_JOB_HANDLERS, QuotePublicLinks } from '@leadflow/quotes-core';
import { ConfigQuotePublicLinks } from './infrastructure/cqrs/cqrs-quote-collaborators';
import { QUOTES_RECORDS } from './infrastructure/persistence/quotes.records';
import { QUOTE_EXPIRY_QUEUE } from './interface/jobs/expire-quotes.job';
import { ExpireQuotesProcessor } from './interface/jobs/expire-quotes.processor';
import { QuoteExpiryScheduler } from './interface/jobs/quote-expiry.scheduler';
import { QUOTES_PERSISTENCE_PROVIDERS } from './quotes-persistence.providers';

/** The quotes context for the worker: the daily expiry (repeatable job). Needs QueueModule.forRoot. */
@Module({
  imports: [BullModule.registerQueue({ name: QUOTE_EXPIRY_QUEUE }), TypeOrmModule.forFeature(QUOTES_RECORDS)],
  providers: [
    ...QUOTES_JOB_HANDLERS,
    ...QUOTES_PERSISTENCE_PROVIDERS,
    { provide: QuotePublicLinks, useClass: ConfigQuotePublicLinks },
    ExpireQuotesProcessor,
    QuoteExpiryScheduler,
  ],
})
export class QuotesJobsModule {}
