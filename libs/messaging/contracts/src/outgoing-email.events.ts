/**
 * Integration events of the outgoing-email path, written to the transactional outbox with the state
 * change that causes them. `email_queued` is internal (the worker's dispatch); `email_sent` is the
 * public catalog name; `email_failed` reports a permanent failure or exhausted retries.
 */
export const MESSAGING_EVENTS = {
  emailQueued: 'email_queued',
  emailSent: 'email_sent',
  emailFailed: 'email_failed',
} as const;

/** Payload of `email_queued`: what the worker needs to schedule the delivery. */
export interface EmailQueuedPayload extends Record<string, unknown> {
  email_id: string;
  type: string;
  /** 1 = highest; also the BullMQ priority of the delivery job. */
  priority: number;
  is_test: boolean;
  contact_id: string | null;
  source: { kind: string; id: string } | null;
}

/** Payload of `email_sent` and `email_failed`. */
export interface EmailDeliveredPayload extends Record<string, unknown> {
  email_id: string;
  to: string;
  subject: string;
  type: string;
  is_test: boolean;
  contact_id: string | null;
  source: { kind: string; id: string } | null;
  status: 'sent' | 'failed';
  attempts: number;
  /** ISO 8601, `email_sent` only. */
  sent_at: string | null;
  /** `email_failed` only. */
  last_error: string | null;
}
