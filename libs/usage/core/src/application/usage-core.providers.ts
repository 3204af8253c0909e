import { AggregateUsageHandler } from './commands/aggregate-usage/aggregate-usage.handler';
import { GetAccountUsageHandler } from './queries/get-account-usage/get-account-usage.handler';
import { GetUsageHandler } from './queries/get-usage/get-usage.handler';

/** Every command and query handler of the usage context (declared once: UsageCoreModule registers them for both the api and the worker). */
export const USAGE_HANDLERS = [AggregateUsageHandler, GetUsageHandler, GetAccountUsageHandler];
