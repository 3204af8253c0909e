import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { EventRegistrationView, RegistrationStatus } from '@leadflow/events-contracts';

/** The body of POST /v1/events after DTO validation (public-api-v1 › Custom event input). */
export interface CustomEventInput {
  /** Case-sensitive name. */
  event: string;
  contact: {
    externalId: string | null;
    externalSource: string | null;
    /** As sent; normalised (lowercase) by the handler. */
    email: string | null;
    /** As sent; normalised to E.164 by the handler. */
    phone: string | null;
    firstName: string | null;
    /** Default true. */
    createIfMissing: boolean;
  };
  payload: Record<string, unknown>;
  /** Keyed by custom field definition name. */
  customFields: Record<string, unknown>;
  sourceLabel: string | null;
}

/** The 200 body of POST /v1/events (top level, no `data` envelope). */
export interface CustomEventIngested {
  status: 'ingested';
  enrolled_executions: number;
  /** Present (true) only when the identifiers matched only an archived contact. */
  contact_archived?: true;
}

/** POST /v1/events; see IngestCustomEventHandler. */
export class IngestCustomEventCommand extends Command<CustomEventIngested> {
  constructor(
    readonly accountId: AccountId,
    readonly input: CustomEventInput,
    readonly actor: Actor,
    readonly apiKeyId: string | null,
  ) {
    super();
  }
}

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
