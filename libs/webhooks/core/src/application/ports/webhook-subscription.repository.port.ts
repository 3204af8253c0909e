import type { AccountId } from '@leadflow/shared-kernel';
import type { WebhookEventSelection } from '../../domain/webhook-subscription-rules';

/** A subscription as stored (the secret encrypted, never in clear). */
export interface WebhookSubscriptionRecord {
  id: string;
  accountId: AccountId;
  /** The API key that created it: only that key lists, deletes or manages it. */
  apiKeyId: string;
  url: string;
  selection: WebhookEventSelection;
  /** The signing secret as the {@link WebhookSecretVault} stored it. */
  secretCiphertext: string;
  createdAt: Date;
  /** Why the subscription was disabled (`endpoint_gone`, `failing_for_5_days`), null while enabled. */
  disabledReason?: string | null;
  disabledAt?: Date | null;
}

/** What the fan-out needs of a subscription: its id and the events it listens to. */
export interface ListeningSubscription {
  id: string;
  allEvents: boolean;
  events: string[];
}

/** The `webhooks.subscriptions` table. Every method filters on the account. */
export abstract class WebhookSubscriptionRepository {
  /**
   * Serialises subscription creations of the account until the current unit of work ends (a per-account
   * lock) and answers how many subscriptions it has (all keys).
   */
  abstract lockAndCount(accountId: AccountId): Promise<number>;

  /** Inserts the subscription (in the current unit of work); the fan-out sees it once committed. */
  abstract insert(subscription: WebhookSubscriptionRecord): Promise<void>;

  /** The key's subscriptions, newest first (`created_at DESC, id DESC`); `apiKeyId` null: every key's (the operator console). */
  abstract listByKey(accountId: AccountId, apiKeyId: string | null): Promise<WebhookSubscriptionRecord[]>;

  /** Deletes the key's subscription and answers its url; null when it is not the account's and the key's. */
  abstract deleteOwned(accountId: AccountId, apiKeyId: string, id: string): Promise<{ url: string } | null>;

  /** The key's subscription, or null when it is not the account's and the key's. */
  abstract findOwned(accountId: AccountId, apiKeyId: string, id: string): Promise<WebhookSubscriptionRecord | null>;

  /**
   * Rotation: the current secret becomes the previous one (signing until `previousExpiresAt`), `secretCiphertext`
   * the current. Null when the subscription is not the account's and the key's.
   */
  abstract rotateSecret(accountId: AccountId, apiKeyId: string, id: string, secretCiphertext: string, previousExpiresAt: Date): Promise<WebhookSubscriptionRecord | null>;

  /** Erases the previous secrets whose 24 h expired before `now`; answers how many. */
  abstract eraseExpiredPreviousSecrets(now: Date): Promise<number>;

  /** Disables the subscription (`reason`); answers its url when this call disabled it, null when it already was (or is gone). */
  abstract disable(accountId: AccountId, id: string, reason: string, now: Date): Promise<{ url: string } | null>;

  /** The account's ENABLED subscriptions with the events they listen to (the adapter may cache them for a few seconds). */
  abstract listening(accountId: AccountId): Promise<ListeningSubscription[]>;
}
