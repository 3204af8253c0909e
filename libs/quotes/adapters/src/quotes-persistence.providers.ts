import { ContactQuotesReassignment, QuoteRepository, QuotesReadModel } from '@leadflow/quotes-core';
import { TypeOrmContactQuotesReassignment } from './infrastructure/persistence/typeorm-contact-quotes-reassignment';
import { TypeOrmQuoteRepository } from './infrastructure/persistence/typeorm-quote.repository';
import { TypeOrmQuotesReadModel } from './infrastructure/persistence/typeorm-quotes.read-model';

/** The quotes ports on PostgreSQL (api and worker alike); `UnitOfWork` and `Journal` come from PlatformModule. */
export const QUOTES_PERSISTENCE_PROVIDERS = [
  { provide: QuoteRepository, useClass: TypeOrmQuoteRepository },
  { provide: QuotesReadModel, useClass: TypeOrmQuotesReadModel },
  { provide: ContactQuotesReassignment, useClass: TypeOrmContactQuotesReassignment },
];
