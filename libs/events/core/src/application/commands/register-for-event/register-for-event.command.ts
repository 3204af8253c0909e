import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { EventRegistrationView } from '@leadflow/events-contracts';

/** The body of POST /v1/event-registrations after DTO validation (exactly one of eventId / eventSlug). */
export interface RegistrationRequest {
  contactId: string;
  eventId: string | null;
  eventSlug: string | null;
  editionId: string | null;
  language: string | null;
}

export interface RegistrationOutcome {
  registration: EventRegistrationView;
  /** True for a first registration (201), false for a repeat (200). */
  created: boolean;
}

/** POST /v1/event-registrations; see RegisterForEventHandler. */
export class RegisterForEventCommand extends Command<RegistrationOutcome> {
  constructor(
    readonly accountId: AccountId,
    readonly request: RegistrationRequest,
    readonly actor: Actor,
  ) {
    super();
  }
}
