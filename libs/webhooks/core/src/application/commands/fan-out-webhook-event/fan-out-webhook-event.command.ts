import { Command } from '@nestjs/cqrs';
import type { IntegrationEvent } from '@leadflow/shared-kernel';

/** An outbox event reached the webhooks consumer: create its deliveries and queue their first attempt. */
export class FanOutWebhookEventCommand extends Command<{ deliveries: number }> {
  constructor(readonly event: IntegrationEvent) {
    super();
  }
}
