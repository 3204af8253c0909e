import type { AccountId, IntegrationEvent, JournalEntry } from '@leadflow/shared-kernel';
import type { ContactState } from '../../domain/contact.aggregate';
import type { Identity } from '../../domain/contact-identity';
import type { IdentityOwner } from './contact-identity.repository.port';

/** One recorded capture (outcome `created`): opens the contact's 5 minute window. */
export interface LeadCaptureRecord {
  id: string;
  contactId: string;
  /** The capture's activity-log entry. */
  activityId: string;
  contactWasNew: boolean;
  capturedAt: Date;
}

/** What a recorded capture writes in the contacts schema beside its capture row. */
export interface LeadCaptureWrites {
  /** The new contact (outcome `created` of a new person), inserted with its primary identities. */
  newContact?: ContactState;
  /** Tags attached to the contact (those already attached are left alone). */
  tagIds?: readonly string[];
  /**
   * The capture's activity entries and outbox events, written in the same statement as the capture row
   * (instead of through the kernel's `Journal`), so that a new person's capture is one atomic statement
   * that needs no transaction around it.
   */
  journal?: { entries: readonly JournalEntry[]; events: readonly IntegrationEvent[] };
}

/**
 * The record of captures (`contacts.lead_captures`), read for the per-contact window, and lead
 * capture's writes in the contacts schema. Joins the caller's unit of work; filters on the account.
 */
export abstract class LeadCaptureLog {
  /** The contact's most recent recorded capture, or null. */
  abstract lastCapture(accountId: AccountId, contactId: string): Promise<LeadCaptureRecord | null>;
  /**
   * Records a capture (outcome `created`): the capture row and, together with it, `writes` (a new
   * contact with its primary identities, tags attached, the journal), in one statement. Throws `IdentityTakenError` when the unique
   * identity index refuses one of the new contact's identities (a concurrent capture won the race).
   */
  abstract record(accountId: AccountId, capture: LeadCaptureRecord, writes?: LeadCaptureWrites): Promise<void>;
  /**
   * A new person's capture in ONE statement that checks the person's identities first (issue 11: one
   * round trip): when none of `lookups` is stored (primary or secondary, any contact), records the capture
   * with `writes` as {@link record} does and answers `{ recorded: true }`; otherwise writes nothing and
   * answers the owners of the stored ones, as `ContactIdentityRepository.findIdentityOwners` would.
   * Throws `IdentityTakenError` when a concurrent capture of the same person inserted one meanwhile.
   */
  abstract recordIfNewPerson(
    accountId: AccountId,
    lookups: readonly Identity[],
    capture: LeadCaptureRecord,
    writes: LeadCaptureWrites,
  ): Promise<NewPersonCapture>;
}

/** What {@link LeadCaptureLog.recordIfNewPerson} did: recorded, or nothing because these owners hold an identity. */
export type NewPersonCapture = { recorded: true } | { recorded: false; owners: IdentityOwner[] };

/** What the SMS bot needs to take over a captured lead. */
export interface SmsHandOff {
  /** The `lead_created` event handed off (one hand-off per event). */
  eventId: string;
  contactId: string;
  captureId: string;
  /** E.164. */
  phone: string;
  firstName: string | null;
  /** When the capture was recorded. */
  capturedAt: Date;
  /** When the hand-off is made. */
  handedOffAt: Date;
}

/** What the SMS hand-off needs to know of the contact (see {@link aiFollowUpOpen}). */
export interface ContactFollowUpState {
  /** Set when a merge absorbed the contact. */
  mergedIntoId: string | null;
  /** When a human decision (a stage move) stopped the AI assistant's follow-up, UTC; null while it runs. */
  aiFollowUpStoppedAt: Date | null;
}

/**
 * The rule of the hand-off on the contact's side: the contact exists in the account (not deleted, not
 * another account's), no merge absorbed it, and no human decision stopped the AI follow-up.
 */
export function aiFollowUpOpen(contact: ContactFollowUpState | null): contact is ContactFollowUpState {
  return contact !== null && contact.mergedIntoId === null && contact.aiFollowUpStoppedAt === null;
}

/** What {@link SmsFollowUpPort.handOff} saw and did. */
export interface SmsHandOffResult {
  /** The contact as the hand-off read it; null when it does not exist in the account. */
  contact: ContactFollowUpState | null;
  /** True when the hand-off was recorded now; false when {@link aiFollowUpOpen} did not hold or this event was already handed off. */
  recorded: boolean;
}

/**
 * The SMS follow-up of a captured lead (public-api-v1 › Endpoints › Leads rule 7). The default
 * adapter records the hand-off in PostgreSQL (`contacts.sms_handoffs`), where the SMS bot picks it
 * up; no SMS provider is called. A second hand-off of the same event changes nothing.
 */
export abstract class SmsFollowUpPort {
  /**
   * Reads the contact's follow-up state and records the hand-off only when {@link aiFollowUpOpen} holds
   * for it, both at one instant (the default adapter: one statement, issue 11 item 3).
   */
  abstract handOff(accountId: AccountId, handOff: SmsHandOff): Promise<SmsHandOffResult>;
}
