/** Queue of the quote expiry (prefixed by QueueModule with `<REDIS_PREFIX>:bull`). */
export const QUOTE_EXPIRY_QUEUE = 'quotes-expiry';

/** Job name and scheduler id of the daily expiry. */
export const EXPIRE_QUOTES_JOB = 'expire-quotes';

/**
 * Daily at 00:05 in Montreal (cron, zone America/Montreal): quotes whose `valid_until` is before today in
 * their account's zone become `expired`. Accounts west of Montreal are seen at their own date then.
 */
export const QUOTE_EXPIRY_SCHEDULE = { pattern: '5 0 * * *', tz: 'America/Montreal' } as const;

/** The job carries no data: each run reads the clock. */
export type ExpireQuotesJob = Record<string, never>;
