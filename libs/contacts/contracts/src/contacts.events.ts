import type { ContactView } from './contact.views';

/**
 * Integration events the contacts context writes to `platform.outbox` (type → payload). `lead_updated`
 * and `note_created` are public webhook names (public-api-v1 › Outbound webhooks); the others are
 * internal facts for other contexts (pipeline counts, bookings and messaging cleanup).
 */
export const CONTACT_EVENTS = {
  created: 'contact_created',
  updated: 'lead_updated',
  deleted: 'contact_deleted',
  noteCreated: 'note_created',
  archived: 'contact_archived',
  unarchived: 'contact_unarchived',
  merged: 'contact_merged',
  unmerged: 'contact_unmerged',
  disqualified: 'contact_disqualified',
  /** A recorded lead capture (public webhook name; payload `LeadCreatedPayload`). */
  leadCreated: 'lead_created',
} as const;

/** One changed field of `lead_updated`: public field name → previous and new public value. */
export type ContactChanges = Record<string, { previous: unknown; current: unknown }>;

export interface ContactCreatedPayload extends Record<string, unknown> {
  contact_id: string;
  contact: ContactView;
}

export interface LeadUpdatedPayload extends Record<string, unknown> {
  contact_id: string;
  contact: ContactView;
  changes: ContactChanges;
}

export interface ContactDeletedPayload extends Record<string, unknown> {
  /** The contact and the contacts that had been merged into it, all deleted. */
  contact_ids: string[];
}

export interface NoteCreatedPayload extends Record<string, unknown> {
  contact_id: string;
  note_id: string;
  body: string;
}

/**
 * `contact_merged` (a webhook since issue 15): `contact_id` was absorbed by `into_contact_id`. The
 * operator merge sends these two members; the public merge (`POST /v1/contacts/{id}/merge`) adds its
 * report: `survivor` (contact read shape), `fields`, `identities`, `tags`, `deals`, `bookings`, `quotes`,
 * `registrations`.
 */
export interface ContactMergedPayload extends Record<string, unknown> {
  contact_id: string;
  into_contact_id: string;
}

/** Archive, unarchive, disqualify, unmerge; merge adds `into_contact_id`. */
export interface ContactLifecyclePayload extends Record<string, unknown> {
  contact_id: string;
  into_contact_id?: string;
}
