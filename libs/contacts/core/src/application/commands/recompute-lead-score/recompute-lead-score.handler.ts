import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, UnitOfWork } from '@leadflow/shared-kernel';
import { scoreLead } from '../../../domain/lead-score/lead-score';
import { leadScoreFacts } from '../../../domain/lead-score/lead-signals';
import { LeadScoreRepository } from '../../ports/lead-score.port';
import { LeadScoreRecomputed, RecomputeLeadScoreCommand } from './recompute-lead-score.command';

/**
 * One transaction: the contact locked with its signals, the score computed at the clock's now
 * ({@link scoreLead} on {@link leadScoreFacts}), written when it or its review time changed. A contact
 * absorbed by a merge keeps its last score and leaves the review schedule; a missing one (deleted, or
 * another account's id) is left alone.
 */
@CommandHandler(RecomputeLeadScoreCommand)
export class RecomputeLeadScoreHandler implements ICommandHandler<RecomputeLeadScoreCommand> {
  constructor(
    private readonly scores: LeadScoreRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, contactId }: RecomputeLeadScoreCommand): Promise<LeadScoreRecomputed> {
    return this.unitOfWork.run(async () => {
      const found = await this.scores.findForScoring(accountId, contactId);
      if (!found) return { score: null, changed: false };
      const { contact, signals } = found;
      if (contact.mergedIntoId !== null) {
        if (contact.scoreReviewAt !== null) await this.scores.saveScore(accountId, contact.id, contact.score, null);
        return { score: null, changed: contact.scoreReviewAt !== null };
      }
      const score = scoreLead(leadScoreFacts(contact, signals), this.clock.now());
      const changed = score.score !== contact.score || (score.reviewAt?.getTime() ?? null) !== (contact.scoreReviewAt?.getTime() ?? null);
      if (changed) await this.scores.saveScore(accountId, contact.id, score.score, score.reviewAt);
      return { score, changed };
    });
  }
}
