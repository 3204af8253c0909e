import type { AccountId } from '@leadflow/shared-kernel';

/** One recorded capture (outcome `created`): opens the contact's 5 minute window. */
export interface LeadCaptureRecord {
  id: string;
  contactId: string;
  /** The capture's activity-log entry. */
  activityId: string;
  contactWasNew: boolean;
  capturedAt: Date;
}

/** The record of captures (`contacts.lead_captures`), read for the per-contact window. */
export abstract class LeadCaptureLog {
  /** The contact's most recent recorded capture, or null. */
  abstract lastCapture(accountId: AccountId, contactId: string): Promise<LeadCaptureRecord | null>;
  /** Joins the caller's unit of work. */
  abstract record(accountId: AccountId, capture: LeadCaptureRecord): Promise<void>;
}

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

/**
 * The SMS follow-up of a captured lead (public-api-v1 › Endpoints › Leads rule 7). The default
 * adapter records the hand-off in PostgreSQL (`contacts.sms_handoffs`), where the SMS bot picks it
 * up; no SMS provider is called. A second hand-off of the same event changes nothing.
 */
export abstract class SmsFollowUpPort {
  /** True when recorded now, false when this event was already handed off. */
  abstract handOff(accountId: AccountId, handOff: SmsHandOff): Promise<boolean>;
}
