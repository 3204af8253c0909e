import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUOTES_HANDLERS, QuoteAccounts, QuoteContacts, QuoteMailer, QuotePublicLinks } from '@leadflow/quotes-core';
import { CqrsQuoteAccounts, CqrsQuoteContacts, CqrsQuoteMailer, ConfigQuotePublicLinks } from './infrastructure/cqrs/cqrs-quote-collaborators';
import { QUOTES_RECORDS } from './infrastructure/persistence/quotes.records';
import { PublicQuotePageController } from './interface/http/public-quote-page.controller';
import { QuotesController } from './interface/http/quotes.controller';
import { QUOTES_PERSISTENCE_PROVIDERS } from './quotes-persistence.providers';

/** The quotes context for the api app: `/v1/quotes`, the public page `/q/{token}`, the published commands. */
@Module({
  imports: [TypeOrmModule.forFeature(QUOTES_RECORDS)],
  controllers: [QuotesController, PublicQuotePageController],
  providers: [
    ...QUOTES_HANDLERS,
    ...QUOTES_PERSISTENCE_PROVIDERS,
    { provide: QuoteAccounts, useClass: CqrsQuoteAccounts },
    { provide: QuoteContacts, useClass: CqrsQuoteContacts },
    { provide: QuoteMailer, useClass: CqrsQuoteMailer },
    { provide: QuotePublicLinks, useClass: ConfigQuotePublicLinks },
  ],
})
export class QuotesHttpModule {}
