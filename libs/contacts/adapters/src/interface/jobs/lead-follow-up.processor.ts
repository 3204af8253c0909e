import { Processor, WorkerHost } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { Job, UnrecoverableError } from 'bullmq';
import { asAccountId, DomainError } from '@leadflow/shared-kernel';
import type { LeadCreatedPayload } from '@leadflow/contacts-contracts';
import { HandOffSmsFollowUpCommand, SmsHandOffOutcome } from '@leadflow/contacts-core';
import type { IntegrationEventJob } from '@leadflow/shared-platform';
import { LEAD_FOLLOW_UP_QUEUE } from './lead-follow-up.job';

/**
 * Hands each relayed `lead_created` event to the SMS bot (public-api-v1 › Endpoints › Leads rule 7:
 * within 30 seconds; the relay polls every 500 ms by default). A DomainError is final
 * (UnrecoverableError, no retry); anything else (database down) is rethrown so BullMQ retries with
 * backoff. The hand-off is recorded once per event however often the job runs.
 */
@Processor(LEAD_FOLLOW_UP_QUEUE, { concurrency: 8 })
export class LeadFollowUpProcessor extends WorkerHost {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  async process(job: Job<IntegrationEventJob>): Promise<SmsHandOffOutcome> {
    const event = job.data;
    try {
      return await this.commands.execute(
        new HandOffSmsFollowUpCommand(asAccountId(event.accountId), event.id, event.payload as LeadCreatedPayload, new Date(event.occurredAt)),
      );
    } catch (error) {
      if (error instanceof DomainError) throw new UnrecoverableError(error.code);
      throw error;
    }
  }
}
