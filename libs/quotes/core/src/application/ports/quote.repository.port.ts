import type { AccountId } from '@leadflow/shared-kernel';
import type { QuoteState } from '../../domain/quote.aggregate';

/** Thrown by a `nowait` read when another transaction holds the quote's row (a concurrent send). */
export class QuoteRowLockedError extends Error {
  constructor() {
    super('The quote row is locked by another transaction.');
  }
}

export interface QuotePayment {
  id: string;
  quoteId: string;
  amountCents: number;
  recordedAt: Date;
}

/**
 * Write-side persistence of quotes. Every method takes the AccountId first and filters on it; writes
 * join the caller's unit of work. Ids that are not UUIDs find nothing.
 */
export abstract class QuoteRepository {
  /**
   * The next number of the account's sequence for `year` (1, 2, …): a row-locked counter incremented in
   * the caller's transaction, so concurrent creates never get the same number and a rolled-back create
   * gives its number back.
   */
  abstract nextSequence(accountId: AccountId, year: number): Promise<number>;
  abstract insert(quote: QuoteState): Promise<void>;
  /** Writes every column but the id, account, number and creation time. */
  abstract update(quote: QuoteState): Promise<void>;
  /**
   * The quote (archived or not). `lock`: `wait` takes the row lock (waiting for it); `nowait` throws
   * {@link QuoteRowLockedError} when another transaction holds it. Locks need a unit of work.
   */
  abstract find(accountId: AccountId, quoteId: string, options?: { lock?: 'wait' | 'nowait' }): Promise<QuoteState | null>;
  /** The quote whose public page token hashes to `tokenHash` (row-locked when `lock`). */
  abstract findByTokenHash(accountId: AccountId, tokenHash: string, options?: { lock?: boolean }): Promise<QuoteState | null>;
  abstract insertPayment(accountId: AccountId, payment: QuotePayment): Promise<void>;
  /**
   * Accounts (with the zone their quotes' dates are in) having draft, sent or viewed quotes without
   * payment, not archived, whose `valid_until` is before `before` (any account, every zone).
   */
  abstract expiryGroups(before: string): Promise<{ accountId: AccountId; timezone: string }[]>;
  /** Those quotes of the account and zone with `valid_until` before `today`, row-locked, skipping rows other transactions hold. */
  abstract lockExpiryCandidates(accountId: AccountId, timezone: string, today: string): Promise<QuoteState[]>;
}
