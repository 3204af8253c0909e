import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Queue } from 'bullmq';
import { LEAD_SCORE_REVIEW_QUEUE, LEAD_SCORE_REVIEW_SCHEDULE, REVIEW_LEAD_SCORES_JOB, ReviewLeadScoresJob } from './lead-score.job';

/** Registers the hourly lead score review when the worker starts (`upsertJobScheduler` is idempotent across workers). */
@Injectable()
export class LeadScoreReviewScheduler implements OnApplicationBootstrap {
  constructor(@InjectQueue(LEAD_SCORE_REVIEW_QUEUE) private readonly queue: Queue<ReviewLeadScoresJob>) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(REVIEW_LEAD_SCORES_JOB, { ...LEAD_SCORE_REVIEW_SCHEDULE }, {
      name: REVIEW_LEAD_SCORES_JOB,
      data: {},
      opts: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 }, removeOnComplete: 30, removeOnFail: 100 },
    });
  }
}
