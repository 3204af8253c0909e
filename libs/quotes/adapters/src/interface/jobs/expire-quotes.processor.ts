import { Processor, WorkerHost } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { Job, UnrecoverableError } from 'bullmq';
import { DomainError } from '@leadflow/shared-kernel';
import { ExpireQuotesCommand } from '@leadflow/quotes-contracts';
import { ExpireQuotesJob, QUOTE_EXPIRY_QUEUE } from './expire-quotes.job';
import { STALLED_JOB_SETTINGS } from '@leadflow/shared-platform';

/** Runs the expiry for each job of the daily schedule; infrastructure errors fail the job (BullMQ retries it). */
@Processor(QUOTE_EXPIRY_QUEUE, { ...STALLED_JOB_SETTINGS, concurrency: 1 })
export class ExpireQuotesProcessor extends WorkerHost {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  async process(_job: Job<ExpireQuotesJob>): Promise<{ expired: number }> {
    try {
      return await this.commands.execute(new ExpireQuotesCommand());
    } catch (error) {
      if (error instanceof DomainError) throw new UnrecoverableError(error.code);
      throw error;
    }
  }
}
