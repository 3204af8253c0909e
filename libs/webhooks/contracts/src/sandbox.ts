import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/**
 * Test mode (issue 15, item 4): deletes the (sandbox) account's webhook deliveries, their attempts and
 * the event samples in the caller's transaction; keeps subscriptions (they belong to its API keys).
 */
export class ResetWebhooksDataCommand extends Command<Record<string, number>> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}
