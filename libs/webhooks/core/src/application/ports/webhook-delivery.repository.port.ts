import type { AccountId } from '@leadflow/shared-kernel';
import type { AttemptDecision, DeliveryState, ReceiverAnswer } from '../../domain/delivery-attempt';
import type { StoredWebhookBody } from '../../domain/webhook-payload';

/** A delivery ready for an attempt job (new, or of a replayed event still waiting for its first attempt). */
export interface DeliveryToSchedule {
  id: string;
  accountId: AccountId;
  /** Attempts already made (0 for a new delivery). */
  attemptsMade: number;
}

/** A delivery leased for one attempt, with what the attempt needs of its subscription. */
export interface ClaimedDelivery {
  id: string;
  accountId: AccountId;
  subscriptionId: string;
  event: string;
  contactId: string | null;
  body: StoredWebhookBody;
  /** Attempts made before this one. */
  attemptsMade: number;
  /** The lease: only the holder of this exact value records the outcome. */
  lockedUntil: Date;
  /** Null when the subscription was deleted meanwhile. */
  subscription: {
    url: string;
    secretCiphertext: string;
    /** The secret replaced by a rotation less than 24 h ago (still signing), else null. */
    previousSecretCiphertext: string | null;
    /** Set when the subscription is disabled (its deliveries are not attempted). */
    disabledReason: string | null;
    /** First failed attempt since the subscription's last success, null when its last attempt succeeded. */
    failingSince: Date | null;
  } | null;
}

/** Why a delivery was not claimed. */
export type ClaimRefusal = 'not_due' | 'settled' | 'busy' | 'missing';

/** One recorded attempt. */
export interface RecordedAttempt {
  attempt: number;
  answer: ReceiverAnswer;
  decision: AttemptDecision;
  at: Date;
}

/** A delivery whose attempt job may have been lost (the sweeper's candidates). */
export interface OverdueDelivery {
  id: string;
  accountId: AccountId;
  attemptsMade: number;
  /** Id of the queue job that last took charge of the delivery. */
  jobId: string;
}

/** The `webhooks.deliveries` and `webhooks.delivery_attempts` tables (the source of truth of deliveries). */
export abstract class WebhookDeliveryRepository {
  /**
   * For event `eventId`: one delivery per subscription (`pending`, attempt 0; idempotent on (event,
   * subscription)) and the event's sample row, which holds the body once for all of them (the claim reads
   * it there), atomically. Answers the event's deliveries still waiting for their first attempt (the new
   * ones, or a replayed event's).
   */
  abstract createForEvent(input: {
    accountId: AccountId;
    eventId: string;
    event: string;
    contactId: string | null;
    body: StoredWebhookBody;
    occurredAt: Date;
    subscriptionIds: { deliveryId: string; subscriptionId: string }[];
    now: Date;
  }): Promise<DeliveryToSchedule[]>;

  /**
   * Leases the delivery until `leaseUntil` when it is `pending` or `retrying`, due (`next_attempt_at` at
   * most 1 s after `now`) and not leased by a live attempt; answers it with its subscription's url and
   * secret, or why it was not claimed.
   */
  abstract claim(accountId: AccountId, deliveryId: string, leaseUntil: Date, now: Date): Promise<ClaimedDelivery | ClaimRefusal>;

  /**
   * Records the attempt row and the delivery's new state together. The state is written only while
   * `claimed.lockedUntil` is still the delivery's lease (a stale attempt keeps its history row only).
   */
  abstract recordAttempt(claimed: ClaimedDelivery, recorded: RecordedAttempt): Promise<void>;

  /**
   * Makes the delivery due now for a redelivery carried by job `jobId` (state `pending` before any attempt,
   * else `retrying`; its attempts and their log are kept). Null when it is not the account's (or, with
   * `subscriptionId`, not that subscription's).
   */
  abstract prepareRedelivery(accountId: AccountId, deliveryId: string, subscriptionId: string | null, jobId: string, now: Date): Promise<{ subscriptionId: string; attemptsMade: number } | null>;

  /** Marks the subscription's deliveries still waiting `failed` (`reason`), e.g. when it is deleted. */
  abstract failWaiting(accountId: AccountId, subscriptionId: string, reason: string, now: Date): Promise<void>;

  /** Deliveries `pending` or `retrying`, due before `dueBefore`, not leased at `now`, oldest due first. */
  abstract overdue(dueBefore: Date, now: Date, limit: number): Promise<OverdueDelivery[]>;

  /** Notes that job `jobId` now carries each delivery (after the sweeper queued it again). */
  abstract assignJobs(assignments: { accountId: AccountId; deliveryId: string; jobId: string }[]): Promise<void>;

  /**
   * Lease takeover (docs/adr/0004): releases the leases the given dead workers hold on deliveries still
   * `pending` or `retrying` (one statement: only one caller gets each row) and answers those deliveries.
   */
  abstract releaseLeasesOf(workerIds: readonly string[], now: Date): Promise<OverdueDelivery[]>;
}

export type { DeliveryState };
