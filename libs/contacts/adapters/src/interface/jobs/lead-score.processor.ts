import { Processor } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { asAccountId, isUuid } from '@leadflow/shared-kernel';
import { LeadScoreRecomputed, RecomputeLeadScoreCommand } from '@leadflow/contacts-core';
import { IntegrationEventConsumer, IntegrationEventJob, STALLED_JOB_SETTINGS } from '@leadflow/shared-platform';
import { LEAD_SCORE_QUEUE } from './lead-score.job';

/**
 * Recomputes the lead score of the contact each relayed event names (`payload.contact_id`; see
 * LEAD_SCORE_EVENTS). The recompute reads what is recorded now, so it is idempotent: a repeated or
 * late event changes nothing more. An event without a contact is handled as a no-op; anything the
 * database refuses has the batch retried with backoff.
 */
@Processor(LEAD_SCORE_QUEUE, { ...STALLED_JOB_SETTINGS, concurrency: 4 })
export class LeadScoreProcessor extends IntegrationEventConsumer {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected async handle(event: IntegrationEventJob): Promise<LeadScoreRecomputed | null> {
    const contactId = event.payload['contact_id'];
    if (typeof contactId !== 'string' || !isUuid(contactId)) return null;
    return this.commands.execute(new RecomputeLeadScoreCommand(asAccountId(event.accountId), contactId));
  }
}
