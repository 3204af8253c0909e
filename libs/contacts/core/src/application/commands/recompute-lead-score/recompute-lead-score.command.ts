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
