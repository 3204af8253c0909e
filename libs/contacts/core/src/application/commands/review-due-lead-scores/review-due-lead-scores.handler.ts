import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { LeadScoreRepository } from '../../ports/lead-score.port';
import { RecomputeLeadScoreCommand } from '../recompute-lead-score/recompute-lead-score.command';
import { ReviewDueLeadScoresCommand } from './review-due-lead-scores.command';

/**
 * The scheduled review pass (see {@link ReviewDueLeadScoresCommand}): each contact due is recomputed
 * in a transaction of its own ({@link RecomputeLeadScoreCommand}), which moves its review time past
 * now (or clears it), so a batch never comes back; the batch cap bounds a run all the same.
 */
@CommandHandler(ReviewDueLeadScoresCommand)
export class ReviewDueLeadScoresHandler implements ICommandHandler<ReviewDueLeadScoresCommand> {
  constructor(
    private readonly scores: LeadScoreRepository,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
  ) {}

  async execute({ batchSize, maxBatches }: ReviewDueLeadScoresCommand): Promise<{ reviewed: number }> {
    let reviewed = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const due = await this.scores.dueForReview(this.clock.now(), batchSize);
      for (const { accountId, contactId } of due) {
        await this.commands.execute(new RecomputeLeadScoreCommand(accountId, contactId));
        reviewed += 1;
      }
      if (due.length < batchSize) break;
    }
    return { reviewed };
  }
}
