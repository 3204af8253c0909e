import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  ContactQuotesReassignment,
  QUOTES_HANDLERS,
  QuoteAccounts,
  QuoteContacts,
  QuoteMailer,
  QuotePublicLinks,
  QuoteRepository,
  QuotesReadModel,
  QuotesSandboxData,
} from '@leadflow/quotes-core';
import { CqrsQuoteAccounts, CqrsQuoteContacts, CqrsQuoteMailer, ConfigQuotePublicLinks } from './infrastructure/cqrs/cqrs-quote-collaborators';
import { QUOTES_RECORDS } from './infrastructure/persistence/quotes.records';
import { TypeOrmContactQuotesReassignment } from './infrastructure/persistence/typeorm-contact-quotes-reassignment';
import { TypeOrmQuoteRepository } from './infrastructure/persistence/typeorm-quote.repository';
import { TypeOrmQuotesReadModel } from './infrastructure/persistence/typeorm-quotes.read-model';
import { PostgresQuotesSandboxData } from './infrastructure/sandbox/quotes-sandbox-data';

/**
 * The quotes context's one core module: every handler ({@link QUOTES_HANDLERS}, listed once in core) and
 * every port binding (PostgreSQL, the other contexts' buses, the public links), imported by both
 * QuotesHttpModule and QuotesJobsModule. `UnitOfWork` and `Journal` come from PlatformModule.
 */
@Module({
  imports: [TypeOrmModule.forFeature(QUOTES_RECORDS)],
  providers: [
    ...QUOTES_HANDLERS,
    { provide: QuoteRepository, useClass: TypeOrmQuoteRepository },
    { provide: QuotesReadModel, useClass: TypeOrmQuotesReadModel },
    { provide: ContactQuotesReassignment, useClass: TypeOrmContactQuotesReassignment },
    { provide: QuotesSandboxData, useClass: PostgresQuotesSandboxData },
    { provide: QuoteAccounts, useClass: CqrsQuoteAccounts },
    { provide: QuoteContacts, useClass: CqrsQuoteContacts },
    { provide: QuoteMailer, useClass: CqrsQuoteMailer },
    { provide: QuotePublicLinks, useClass: ConfigQuotePublicLinks },
  ],
})
export class QuotesCoreModule {}
