import type { AccountId } from '@leadflow/shared-kernel';
import type { OutgoingEmailStatus } from '@leadflow/messaging-contracts';
import type { OutgoingEmailState } from '../../domain/outgoing-email';

/** One recorded state change of an outgoing email (`messaging.outgoing_email_status_changes`). */
export interface EmailStatusChange {
  emailId: string;
  /** Null for the creation (`queued`). */
  from: OutgoingEmailStatus | null;
  to: OutgoingEmailStatus;
  /** The attempt the change belongs to (0 before the first hand-over). */
  attempt: number;
  /** The failure that caused a `sending` → `queued` | `failed` change. */
  error: string | null;
  at: Date;
}

/** How a claimed attempt ends. */
export type DeliverySettlement =
  | { status: 'sent'; providerMessageId: string | null; at: Date }
  | { status: 'queued'; error: string; at: Date }
  | { status: 'failed'; error: string; at: Date };

/**
 * Persistence of outgoing emails. Every method takes the account first and filters on it; writes
 * join the caller's unit of work, and each one records its status change beside the row.
 */
export abstract class OutgoingEmailRepository {
  /** Inserts a `queued` email and its first status change. */
  abstract insert(email: OutgoingEmailState): Promise<void>;

  abstract find(accountId: AccountId, emailId: string): Promise<OutgoingEmailState | null>;

  /**
   * Atomically takes the email for one hand-over: `queued` → `sending` (also a `sending` email whose
   * claim is older than `staleBefore`: its worker died mid-send), `attempts` + 1. Null when the email
   * is missing or not claimable (already `sent` or `failed`, or claimed by another worker).
   */
  abstract claim(accountId: AccountId, emailId: string, now: Date, staleBefore: Date): Promise<OutgoingEmailState | null>;

  /**
   * Ends attempt `attempt` (the email must still be `sending` under that attempt). Returns the
   * updated email, or null when another claim took the email over meanwhile (nothing written).
   */
  abstract settle(accountId: AccountId, emailId: string, attempt: number, settlement: DeliverySettlement): Promise<OutgoingEmailState | null>;

  /** Every recorded status change of the email, oldest first. */
  abstract history(accountId: AccountId, emailId: string): Promise<EmailStatusChange[]>;
}
