import { Processor, WorkerHost } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { Job, UnrecoverableError } from 'bullmq';
import { asAccountId, DomainError } from '@leadflow/shared-kernel';
import type { ContactDeletedPayload } from '@leadflow/contacts-contracts';
import { ArchiveContactBookingsCommand } from '@leadflow/bookings-core';
import { consumerQueueName, IntegrationEventJob } from '@leadflow/shared-platform';

/** Outbox consumer of the bookings context. */
export const BOOKINGS_CONSUMER = 'bookings';

/**
 * Archives the bookings of deleted contacts (`contact_deleted`, payload `contact_ids`): they leave
 * `GET /v1/bookings` and their ids answer 404. Replays are harmless (already archived rows are skipped).
 */
@Processor(consumerQueueName(BOOKINGS_CONSUMER), { concurrency: 4 })
export class ContactDeletedProcessor extends WorkerHost {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  async process(job: Job<IntegrationEventJob>): Promise<number> {
    const payload = job.data.payload as ContactDeletedPayload;
    try {
      return await this.commands.execute(new ArchiveContactBookingsCommand(asAccountId(job.data.accountId), payload.contact_ids ?? []));
    } catch (error) {
      if (error instanceof DomainError) throw new UnrecoverableError(error.code);
      throw error;
    }
  }
}
