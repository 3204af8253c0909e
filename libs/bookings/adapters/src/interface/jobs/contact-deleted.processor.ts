import { Processor } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { asAccountId } from '@leadflow/shared-kernel';
import type { ContactDeletedPayload } from '@leadflow/contacts-contracts';
import { ArchiveContactBookingsCommand } from '@leadflow/bookings-core';
import { consumerQueueName, IntegrationEventConsumer, IntegrationEventJob, STALLED_JOB_SETTINGS } from '@leadflow/shared-platform';

/** Outbox consumer of the bookings context. */
export const BOOKINGS_CONSUMER = 'bookings';

/**
 * Archives the bookings of deleted contacts (`contact_deleted`, payload `contact_ids`): they leave
 * `GET /v1/bookings` and their ids answer 404. Replays are harmless (already archived rows are skipped).
 */
@Processor(consumerQueueName(BOOKINGS_CONSUMER), { ...STALLED_JOB_SETTINGS, concurrency: 4 })
export class ContactDeletedProcessor extends IntegrationEventConsumer {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected async handle(event: IntegrationEventJob): Promise<number> {
    const payload = event.payload as ContactDeletedPayload;
    return this.commands.execute(new ArchiveContactBookingsCommand(asAccountId(event.accountId), payload.contact_ids ?? []));
  }
}
