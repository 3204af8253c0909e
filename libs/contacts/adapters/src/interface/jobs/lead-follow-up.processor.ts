import { Processor } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { asAccountId } from '@leadflow/shared-kernel';
import type { LeadCreatedPayload } from '@leadflow/contacts-contracts';
import { HandOffSmsFollowUpCommand, SmsHandOffOutcome } from '@leadflow/contacts-core';
import { IntegrationEventConsumer, IntegrationEventJob, STALLED_JOB_SETTINGS } from '@leadflow/shared-platform';
import { LEAD_FOLLOW_UP_QUEUE } from './lead-follow-up.job';

/**
 * Hands each relayed `lead_created` event to the SMS bot (public-api-v1 › Endpoints › Leads rule 7:
 * within 30 seconds; the relay polls every 500 ms by default). A DomainError is final (recorded
 * `rejected` in the inbox); anything else (database down) has the batch retried with backoff. The
 * hand-off is recorded once per event however often it runs.
 */
@Processor(LEAD_FOLLOW_UP_QUEUE, { ...STALLED_JOB_SETTINGS, concurrency: 8 })
export class LeadFollowUpProcessor extends IntegrationEventConsumer {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  /** Events are independent of each other: eight of a batch at a time. */
  protected override readonly parallelism = 8;

  protected async handle(event: IntegrationEventJob): Promise<SmsHandOffOutcome> {
    return this.commands.execute(
      new HandOffSmsFollowUpCommand(asAccountId(event.accountId), event.id, event.payload as LeadCreatedPayload, new Date(event.occurredAt)),
    );
  }
}
