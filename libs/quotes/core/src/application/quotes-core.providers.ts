import {
  ApplyPublicQuoteActionHandler,
  ApplyQuoteLeadActionHandler,
  ArchiveQuoteHandler,
  GetPublicQuoteHandler,
  LeadActionRunner,
  OpenPublicQuoteHandler,
} from './commands/lead-action.handlers';
import { CreateQuoteHandler } from './commands/create-quote.handler';
import { ExpireQuotesHandler } from './commands/expire-quotes.handler';
import { SendQuoteHandler } from './commands/send-quote.handler';
import { UpdateQuoteHandler } from './commands/update-quote.handler';
import { ReassignContactQuotesHandler } from './commands/reassign-contact-quotes/reassign-contact-quotes.handler';
import { GetQuoteHandler, ListQuotesHandler } from './queries/quote.query-handlers';

/** Every command and query handler of the quotes context for the api app (published commands included). */
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
];

/** Handlers the worker's quotes jobs run (the daily expiry). */
export const QUOTES_JOB_HANDLERS = [ExpireQuotesHandler];
