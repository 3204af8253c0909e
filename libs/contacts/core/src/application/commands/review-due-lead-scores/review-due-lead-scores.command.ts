import { Command } from '@nestjs/cqrs';

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
