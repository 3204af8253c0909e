import type { AccountId } from '@leadflow/shared-kernel';
import type { ContactState } from '../../domain/contact.aggregate';
import type { LeadSignals } from '../../domain/lead-score/lead-signals';

/** A contact due for a score recompute. */
export interface LeadScoreDue {
  accountId: AccountId;
  contactId: string;
}

/**
 * Where the lead score is read from and kept (`contacts.contacts.score`, `score_review_at`). Writes
 * join the caller's unit of work; every method but {@link dueForReview} takes the AccountId first and
 * filters on it.
 */
export abstract class LeadScoreRepository {
  /**
   * The contact, locked until the unit of work ends (two recomputes of one contact run one after the
   * other, so the later one reads what the earlier one saw), with its {@link LeadSignals}; null when
   * it does not exist in the account.
   */
  abstract findForScoring(accountId: AccountId, contactId: string): Promise<{ contact: ContactState; signals: LeadSignals } | null>;

  /** Stores the score and its next review time; `updated_at` is left as it is (the score is derived, not edited). */
  abstract saveScore(accountId: AccountId, contactId: string, score: number, reviewAt: Date | null): Promise<void>;

  /** Up to `limit` contacts of any account whose `score_review_at` is at or before `now`, the oldest first (the scheduled pass). */
  abstract dueForReview(now: Date, limit: number): Promise<LeadScoreDue[]>;
}
