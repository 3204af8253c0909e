import { AggregateUsageHandler } from './commands/aggregate-usage/aggregate-usage.handler';
import { GetAccountUsageHandler } from './queries/get-usage/get-account-usage.handler';
import { GetUsageHandler } from './queries/get-usage/get-usage.handler';

/** Every command and query handler of the usage context (registered by its adapters modules). */
export const USAGE_HANDLERS = [AggregateUsageHandler, GetUsageHandler, GetAccountUsageHandler];
