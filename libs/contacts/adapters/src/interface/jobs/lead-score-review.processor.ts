import { Processor, WorkerHost } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { Job, UnrecoverableError } from 'bullmq';
import { DomainError } from '@leadflow/shared-kernel';
import { ReviewDueLeadScoresCommand } from '@leadflow/contacts-core';
import { LEAD_SCORE_REVIEW_QUEUE, ReviewLeadScoresJob } from './lead-score.job';
import { STALLED_JOB_SETTINGS } from '@leadflow/shared-platform';

/** Runs the lead score review pass for each job of the hourly schedule; infrastructure errors fail the job (BullMQ retries it). */
@Processor(LEAD_SCORE_REVIEW_QUEUE, { ...STALLED_JOB_SETTINGS, concurrency: 1 })
export class LeadScoreReviewProcessor extends WorkerHost {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  async process(_job: Job<ReviewLeadScoresJob>): Promise<{ reviewed: number }> {
    try {
      return await this.commands.execute(new ReviewDueLeadScoresCommand());
    } catch (error) {
      if (error instanceof DomainError) throw new UnrecoverableError(error.code);
      throw error;
    }
  }
}
