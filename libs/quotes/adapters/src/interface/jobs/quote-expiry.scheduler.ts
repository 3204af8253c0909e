import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Queue } from 'bullmq';
import { EXPIRE_QUOTES_JOB, ExpireQuotesJob, QUOTE_EXPIRY_QUEUE, QUOTE_EXPIRY_SCHEDULE } from './expire-quotes.job';

/** Registers the daily expiry when the worker starts (`upsertJobScheduler` is idempotent across workers). */
@Injectable()
export class QuoteExpiryScheduler implements OnApplicationBootstrap {
  constructor(@InjectQueue(QUOTE_EXPIRY_QUEUE) private readonly queue: Queue<ExpireQuotesJob>) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(EXPIRE_QUOTES_JOB, { ...QUOTE_EXPIRY_SCHEDULE }, {
      name: EXPIRE_QUOTES_JOB,
      data: {},
      opts: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 }, removeOnComplete: 30, removeOnFail: 100 },
    });
  }
}
