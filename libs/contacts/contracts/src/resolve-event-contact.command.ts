import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

/** The `contact` block of a custom event (public-api-v1 › Custom event input), already normalised by the caller. */
export interface EventContactIdentifiers {
  /** The integrator's own id of the person (1–255 characters), unique per account and `externalSource`. */
  externalId: string | null;
  /** Namespace of `externalId` (e.g. `shopify`); null and '' are the same default namespace. */
  externalSource: string | null;
  /** Lowercase, valid address (see shared-kernel `normalizeEmail`), or null. */
  email: string | null;
  /** E.164 (see shared-kernel `normalizePhone`), or null. */
  phone: string | null;
  /** Used for a created contact, and to fill an existing contact's empty first name. */
  firstName: string | null;
}

/** How the event's contact was resolved. */
export interface ResolvedEventContact {
  contact_id: string;
  /** True when this command created the contact (`contact_created` activity and outbox event written). */
  created: boolean;
  /** The only match was an archived contact: nothing about it was modified. */
  archived: boolean;
}

/**
 * Resolves (or creates) the contact a custom event is about (public-api-v1 › Endpoints › Events ›
 * POST /v1/events), inside the caller's unit of work:
 *
 * 1. Resolution order `external_id` (within `external_source`), then phone (primary or secondary,
 *    E.164), then email (primary or secondary, case-insensitive); a merged contact resolves to its
 *    survivor. A match on an archived contact is used only when no later identifier matches a live
 *    one ("only an archived contact matches"): it is then returned with `archived` true and left untouched.
 * 2. A live contact is enriched: `customFields` (keyed by definition NAME; unknown names silently
 *    ignored) are merged additively, a sent value replacing the stored one; an empty first name is
 *    filled; an `externalId` not linked yet is linked to it. A change writes a `lead_updated` activity
 *    entry and outbox event like PATCH /v1/contacts/{id}. No consent of any kind is set.
 * 3. No match: null when `createIfMissing` is false (nothing written); else a minimal contact (source
 *    `api`, the main System) with the email, phone, first name and custom fields, linked to the
 *    external id, with a `contact_created` activity entry and outbox event.
 *
 * Throws 400 `invalid_custom_fields` (a known field with a value its definition refuses, violations in
 * `details`); 422 `business_rule_violation` reason `identity_required` when a contact must be created
 * but neither an email nor a phone is given; 409 `duplicate_resource` when a concurrent request created
 * the same identity first (the caller's transaction is then aborted: run the command again in a new one).
 */
export class ResolveEventContactCommand extends Command<ResolvedEventContact | null> {
  constructor(
    readonly accountId: AccountId,
    readonly identifiers: EventContactIdentifiers,
    readonly createIfMissing: boolean,
    /** Keyed by custom field definition name. */
    readonly customFields: Record<string, unknown>,
    readonly actor: Actor,
  ) {
    super();
  }
}
