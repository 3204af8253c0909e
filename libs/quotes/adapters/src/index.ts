import { QuotesInit1795324197792 } from './infrastructure/persistence/migrations/1795324197792-quotes-init';
import { QuotesSubCentUnitPrices1796100000000 } from './infrastructure/persistence/migrations/1796100000000-quotes-sub-cent-unit-prices';
import { QuotesKeysByAccount1800000000600 } from './infrastructure/persistence/migrations/1800000000600-quotes-keys-by-account';

export * from './quotes-http.module';
export * from './quotes-jobs.module';
export * from './interface/jobs/expire-quotes.job';

/** Migrations of the `quotes` schema, in order. */
export const quotesMigrations = [QuotesInit1795324197792, QuotesSubCentUnitPrices1796100000000, QuotesKeysByAccount1800000000600];
