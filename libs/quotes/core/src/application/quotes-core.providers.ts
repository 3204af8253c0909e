import { ApplyPublicQuoteActionHandler } from './commands/apply-public-quote-action/apply-public-quote-action.handler';
import { ApplyQuoteLeadActionHandler } from './commands/apply-quote-lead-action/apply-quote-lead-action.handler';
import { ArchiveQuoteHandler } from './commands/archive-quote/archive-quote.handler';
import { OpenPublicQuoteHandler } from './commands/open-public-quote/open-public-quote.handler';
import { LeadActionRunner } from './lead-action.runner';
import { GetPublicQuoteHandler } from './queries/get-public-quote/get-public-quote.handler';
import { CreateQuoteHandler } from './commands/create-quote/create-quote.handler';
import { ExpireQuotesHandler } from './commands/expire-quotes/expire-quotes.handler';
import { SendQuoteHandler } from './commands/send-quote/send-quote.handler';
import { UpdateQuoteHandler } from './commands/update-quote/update-quote.handler';
import { ReassignContactQuotesHandler } from './commands/reassign-contact-quotes/reassign-contact-quotes.handler';
import { GetQuoteHandler } from './queries/get-quote/get-quote.handler';
import { ListQuotesHandler } from './queries/list-quotes/list-quotes.handler';
import { ResetQuotesDataHandler } from './commands/reset-quotes-data/reset-quotes-data.handler';

/**
 * Every command and query handler of the quotes context (published commands included) and the lead-action
 * runner they share, declared once: QuotesCoreModule registers them for both the api and the worker.
 */
export const QUOTES_HANDLERS = [
  CreateQuoteHandler,
  UpdateQuoteHandler,
  SendQuoteHandler,
  LeadActionRunner,
  ApplyQuoteLeadActionHandler,
  OpenPublicQuoteHandler,
  GetPublicQuoteHandler,
  ApplyPublicQuoteActionHandler,
  ArchiveQuoteHandler,
  ExpireQuotesHandler,
  ListQuotesHandler,
  GetQuoteHandler,
  ReassignContactQuotesHandler,
  ResetQuotesDataHandler,
];
