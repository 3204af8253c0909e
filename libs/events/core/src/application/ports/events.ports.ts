import type { AccountId } from '@leadflow/shared-kernel';
import type { RegistrationStatus } from '@leadflow/events-contracts';
import type { EventState } from '../../domain/registration-rules';

/** One registration of a contact to an edition (`events.registrations`, unique per account, edition and contact). */
export interface RegistrationState {
  id: string;
  accountId: string;
  contactId: string;
  eventId: string;
  editionId: string;
  language: string;
  status: RegistrationStatus;
  /** Set when the person opted out of messages about the registration; never cleared by a re-registration. */
  optedOutAt: Date | null;
  /** The confirmation email queued on the first registration, if any. */
  confirmationEmailId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One ingested custom event (`events.custom_events`). */
export interface CustomEventState {
  id: string;
  accountId: string;
  contactId: string;
  /** Case-sensitive name. */
  name: string;
  /** Stored after the caps of `PAYLOAD_CAPS`. */
  payload: Record<string, unknown>;
  payloadTruncated: boolean;
  sourceLabel: string | null;
  contactArchived: boolean;
  contactCreated: boolean;
  enrolledExecutions: number;
  /** The API key that sent it. */
  apiKeyId: string | null;
  createdAt: Date;
}

/**
 * Persistence of the events context. Every method takes the AccountId first and filters on it;
 * writes join the caller's unit of work. Ids that are not UUIDs find nothing.
 */
export abstract class EventsRepository {
  /** Slugs among `slugs` already used by the account's events. */
  abstract slugsTaken(accountId: AccountId, slugs: readonly string[]): Promise<string[]>;
  abstract insertEvents(accountId: AccountId, events: readonly EventState[]): Promise<void>;
  /** The event with its editions, by id or by slug. */
  abstract findEvent(accountId: AccountId, ref: { id: string } | { slug: string }): Promise<EventState | null>;
  /** Inserts unless the (edition, contact) pair is registered already (concurrent-safe); true when inserted. */
  abstract insertRegistrationIfAbsent(registration: RegistrationState): Promise<boolean>;
  /** `lock` takes a row lock (inside a unit of work). */
  abstract findRegistration(accountId: AccountId, editionId: string, contactId: string, options?: { lock?: boolean }): Promise<RegistrationState | null>;
  abstract findRegistrationById(accountId: AccountId, registrationId: string, options?: { lock?: boolean }): Promise<RegistrationState | null>;
  abstract updateRegistration(registration: RegistrationState): Promise<void>;
  abstract insertCustomEvent(event: CustomEventState): Promise<void>;
}


