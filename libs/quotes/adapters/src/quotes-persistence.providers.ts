import { QuoteJournal, QuoteRepository, QuotesReadModel, QuoteUnitOfWork } from '@leadflow/quotes-core';
import { PlatformQuoteJournal, PlatformQuoteUnitOfWork } from './infrastructure/platform-journal';
import { TypeOrmQuoteRepository } from './infrastructure/persistence/typeorm-quote.repository';
import { TypeOrmQuotesReadModel } from './infrastructure/persistence/typeorm-quotes.read-model';

/** The quotes ports on PostgreSQL and the platform journal (api and worker alike). */
export const QUOTES_PERSISTENCE_PROVIDERS = [
  { provide: QuoteRepository, useClass: TypeOrmQuoteRepository },
  { provide: QuotesReadModel, useClass: TypeOrmQuotesReadModel },
  { provide: QuoteUnitOfWork, useClass: PlatformQuoteUnitOfWork },
  { provide: QuoteJournal, useClass: PlatformQuoteJournal },
];
