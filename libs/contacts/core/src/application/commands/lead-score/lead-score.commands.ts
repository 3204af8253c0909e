import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { LeadScore } from '../../../domain/lead-score/lead-score';

/** What a recompute did: the score computed (null when the contact is gone) and whether it was written. */
export interface LeadScoreRecomputed {
  score: LeadScore | null;
  changed: boolean;
}

/**
 * Recomputes the lead score of one contact from what is recorded now (domain/lead-score). Run by the
 * worker's `lead-score` consumer for each engagement event, and by the scheduled review pass.
 * Idempotent: running it again with nothing new recorded changes nothing.
 */
export class RecomputeLeadScoreCommand extends Command<LeadScoreRecomputed> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
  ) {
    super();
  }
}

/**
 * The scheduled review pass: recomputes the scores whose recency part has dropped since they were
 * computed (`score_review_at` passed), in batches of `batchSize`, at most `maxBatches` batches per
 * run (the next run goes on). Returns the number of contacts recomputed.
 */
export class ReviewDueLeadScoresCommand extends Command<{ reviewed: number }> {
  constructor(
    readonly batchSize = 200,
    readonly maxBatches = 50,
  ) {
    super();
  }
}
