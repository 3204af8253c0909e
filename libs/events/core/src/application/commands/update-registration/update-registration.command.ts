import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { EventRegistrationView, RegistrationStatus } from '@leadflow/events-contracts';

/**
 * Operator action on a registration (`PATCH /admin/v1/accounts/{account_id}/event-registrations/{id}`):
 * what the person did outside the API — declined to attend (`status`), opted out of messages
 * (`optedOut`). 404 `not_found` for another account's or a missing registration.
 */
export class UpdateRegistrationCommand extends Command<EventRegistrationView> {
  constructor(
    readonly accountId: AccountId,
    readonly registrationId: string,
    readonly changes: { status?: RegistrationStatus; optedOut?: boolean },
    readonly actor: Actor,
  ) {
    super();
  }
}
