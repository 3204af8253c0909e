import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

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
