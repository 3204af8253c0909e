import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

/**
 * Worker: enrols a contact from another context's outbox event (`contact_created`, `stage_changed`)
 * in every matching active, published automation; idempotent per (event id, automation).
 */
export class EnrolFromIntegrationEventCommand extends Command<{ executionIds: string[] }> {
  constructor(
    readonly accountId: AccountId,
    readonly eventId: string,
    readonly eventType: string,
    readonly payload: Record<string, unknown>,
    readonly actor: Actor,
  ) {
    super();
  }
}
