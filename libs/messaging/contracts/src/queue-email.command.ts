import { Command } from '@nestjs/cqrs';
import { type AccountId, type Actor, SYSTEM_ACTOR } from '@leadflow/shared-kernel';

/** Kinds of outgoing email; `type` as `GET /admin/v1/accounts/{id}/emails` lists it. */
export type OutgoingEmailType =
  | 'transactional'
  | 'quote'
  | 'booking_notification'
  | 'automation'
  | 'registration_confirmation'
  | 'test';

/** One email to send through the outgoing-email path (quotes, bookings, automations, POST /v1/emails/send). */
export interface OutgoingEmailRequest {
  to: string;
  subject: string;
  /** HTML body; sanitised with sanitize-html before it is stored. */
  html: string;
  type: OutgoingEmailType;
  /** 1 = highest (transactional). */
  priority: number;
  /** Sender; null or absent means the account's default sender (400 `no_sender_configured` when none). */
  from?: { email: string; name: string | null } | null;
  replyTo?: string | null;
  /** A test send: the subject is prefixed `[TEST] ` (once). Listed with `is_test` by the operator API. */
  isTest?: boolean;
  /** Contact the email belongs to, if any (conversation history). */
  contactId?: string | null;
  /** What caused it, e.g. `{ kind: 'quote', id }`, for tracing. */
  source?: { kind: string; id: string } | null;
}

export interface QueuedEmail {
  id: string;
  status: 'queued';
  from: { email: string; name: string | null };
  /** The email thread (per account and recipient address) the email joined; null for a test send. */
  threadId?: string | null;
  /** The recipient as stored (lowercase). */
  to?: string;
  /** The subject as stored (`[TEST] ` prefixed on a test send). */
  subject?: string;
  /** When it was queued (ISO 8601 UTC). */
  createdAt?: string;
}

/**
 * Records an email as `queued` in the caller's unit of work (TransactionHost), with an `email_queued`
 * outbox event; the worker sends it (SMTP_URL or the logging transport), retries transient failures
 * and records the delivery state. Throws 400 `no_sender_configured` when no sender is given and the
 * account has no default sender. A non-test email joins the recipient's email thread (created on the
 * first email to the address). A test email (`isTest`) counts against the account's test quota, 50
 * per rolling 24 hours shared by every test send (`POST /v1/emails/send` with `test`, the platform's
 * test buttons): beyond it, 429 `test_quota_exceeded` and nothing is written.
 */
export class QueueEmailCommand extends Command<QueuedEmail> {
  constructor(
    readonly accountId: AccountId,
    readonly email: OutgoingEmailRequest,
    /**
     * Who asked for the email: the actor of the `email_queued` event (the system by default). An api
     * write passes its own, which carries the request's trace to the worker's delivery logs (issue 17, item 4).
     */
    readonly actor: Actor = SYSTEM_ACTOR,
  ) {
    super();
  }
}
