/** Status of a registration: `registered`, or `declined` when the person said they will not attend. */
export type RegistrationStatus = 'registered' | 'declined';

/**
 * An event registration as `POST /v1/event-registrations` answers it (`{ data, created }`).
 * Timestamps are ISO 8601 UTC with milliseconds.
 */
export interface EventRegistrationView {
  id: string;
  contact_id: string;
  event_id: string;
  edition_id: string;
  language: string;
  status: RegistrationStatus;
  /** The person opted out of messages about this registration (kept across re-registrations). */
  opted_out: boolean;
  created_at: string;
  updated_at: string;
}
