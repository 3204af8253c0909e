import { Module } from '@nestjs/common';
import { PublicQuotePageController } from './interface/http/public-quote-page.controller';
import { QuotesController } from './interface/http/quotes.controller';
import { QuotesCoreModule } from './quotes-core.module';

/** The quotes context for the api app: `/v1/quotes`, the public page `/q/{token}`; handlers (published commands included) and ports from QuotesCoreModule. */
@Module({
  imports: [QuotesCoreModule],
  controllers: [QuotesController, PublicQuotePageController],
})
export class QuotesHttpModule {}
