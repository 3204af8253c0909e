import { AccountId } from '@leadflow/shared-kernel';
import { InMemoryStore } from '@leadflow/shared-testing/fakes';
import type { ReceiverAnswer } from '../domain/delivery-attempt';
import type { StoredWebhookBody } from '../domain/webhook-payload';
import {
  ClaimedDelivery,
  ClaimRefusal,
  DeliveryToSchedule,
  OverdueDelivery,
  RecordedAttempt,
  WebhookDeliveryRepository,
} from '../application/ports/webhook-delivery.repository.port';
import { DeliveryJobRequest, DeliveryJobState, WebhookDeliveryScheduler } from '../application/ports/webhook-delivery.scheduler.port';
import { ContactSystemLookup, WebhookDeliverySettings, WebhookSecretVault, WebhookSender, WebhookTargetCheck } from '../application/ports/webhook-sender.port';
import { ListeningSubscription, WebhookSubscriptionRecord, WebhookSubscriptionRepository } from '../application/ports/webhook-subscription.repository.port';

/** A delivery row of the fake store (the columns the handlers use). */
export interface DeliveryRow {
  id: string;
  accountId: AccountId;
  subscriptionId: string;
  eventId: string;
  event: string;
  contactId: string | null;
  body: StoredWebhookBody;
  status: 'pending' | 'retrying' | 'succeeded' | 'failed';
  attempt: number;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  lockedUntil: Date | null;
  /** The worker whose attempt holds the lease (`locked_by`). */
  lockedBy?: string | null;
  jobId: string | null;
}

/** Every table of the webhooks fakes in one store (rolled back by shared-testing's InMemoryUnitOfWork). */
export class InMemoryWebhooksStore extends InMemoryStore {
  subscriptions: (WebhookSubscriptionRecord & { previousSecretCiphertext?: string | null; previousSecretExpiresAt?: Date | null; failingSince?: Date | null })[] = [];
  deliveries: DeliveryRow[] = [];
  attempts: (RecordedAttempt & { deliveryId: string })[] = [];
  samples: { eventId: string; event: string }[] = [];
}

/** {@link WebhookSubscriptionRepository} in memory (no lock needed: one event loop). */
export class InMemoryWebhookSubscriptions extends WebhookSubscriptionRepository {
  constructor(private readonly store: InMemoryWebhooksStore) {
    super();
  }

  async lockAndCount(accountId: AccountId): Promise<number> {
    return this.store.subscriptions.filter((s) => s.accountId === accountId).length;
  }

  async insert(subscription: WebhookSubscriptionRecord): Promise<void> {
    this.store.subscriptions.push(subscription);
  }

  async listByKey(accountId: AccountId, apiKeyId: string | null): Promise<WebhookSubscriptionRecord[]> {
    return this.store.subscriptions
      .filter((s) => s.accountId === accountId && (apiKeyId === null || s.apiKeyId === apiKeyId))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
  }

  async deleteOwned(accountId: AccountId, apiKeyId: string, id: string): Promise<{ url: string } | null> {
    const found = this.store.subscriptions.find((s) => s.accountId === accountId && s.apiKeyId === apiKeyId && s.id === id);
    if (!found) return null;
    this.store.subscriptions = this.store.subscriptions.filter((s) => s !== found);
    return { url: found.url };
  }

  async findOwned(accountId: AccountId, apiKeyId: string, id: string): Promise<WebhookSubscriptionRecord | null> {
    return this.store.subscriptions.find((s) => s.accountId === accountId && s.apiKeyId === apiKeyId && s.id === id) ?? null;
  }

  async rotateSecret(accountId: AccountId, apiKeyId: string, id: string, secretCiphertext: string, previousExpiresAt: Date): Promise<WebhookSubscriptionRecord | null> {
    const found = this.store.subscriptions.find((s) => s.accountId === accountId && s.apiKeyId === apiKeyId && s.id === id);
    if (!found) return null;
    Object.assign(found, { previousSecretCiphertext: found.secretCiphertext, previousSecretExpiresAt: previousExpiresAt, secretCiphertext });
    return found;
  }

  async eraseExpiredPreviousSecrets(now: Date): Promise<number> {
    const expired = this.store.subscriptions.filter((s) => s.previousSecretExpiresAt && s.previousSecretExpiresAt <= now);
    for (const s of expired) Object.assign(s, { previousSecretCiphertext: null, previousSecretExpiresAt: null });
    return expired.length;
  }

  async disable(accountId: AccountId, id: string, reason: string, now: Date): Promise<{ url: string } | null> {
    const found = this.store.subscriptions.find((s) => s.accountId === accountId && s.id === id && !s.disabledReason);
    if (!found) return null;
    Object.assign(found, { disabledReason: reason, disabledAt: now });
    return { url: found.url };
  }

  async listening(accountId: AccountId): Promise<ListeningSubscription[]> {
    return this.store.subscriptions
      .filter((s) => s.accountId === accountId && !s.disabledReason)
      .map((s) => ({ id: s.id, allEvents: s.selection.all, events: s.selection.all ? [] : [...s.selection.events] }));
  }
}

/** {@link WebhookDeliveryRepository} in memory, with the same claim and lease rules as the SQL one. */
export class InMemoryWebhookDeliveries extends WebhookDeliveryRepository {
  /** The worker named as the holder of the leases this fake's claims take (`locked_by`); null: none. */
  holder: string | null = null;

  constructor(private readonly store: InMemoryWebhooksStore) {
    super();
  }

  async createForEvent(input: Parameters<WebhookDeliveryRepository['createForEvent']>[0]): Promise<DeliveryToSchedule[]> {
    if (!this.store.samples.some((s) => s.eventId === input.eventId)) this.store.samples.push({ eventId: input.eventId, event: input.event });
    for (const { deliveryId, subscriptionId } of input.subscriptionIds) {
      if (this.store.deliveries.some((d) => d.accountId === input.accountId && d.eventId === input.eventId && d.subscriptionId === subscriptionId)) continue;
      this.store.deliveries.push({
        id: deliveryId,
        accountId: input.accountId,
        subscriptionId,
        eventId: input.eventId,
        event: input.event,
        contactId: input.contactId,
        body: input.body,
        status: 'pending',
        attempt: 0,
        responseStatus: null,
        lastError: null,
        nextAttemptAt: input.now,
        lockedUntil: null,
        jobId: null,
      });
    }
    return this.store.deliveries
      .filter((d) => d.accountId === input.accountId && d.eventId === input.eventId && d.status === 'pending' && d.attempt === 0)
      .map((d) => ({ id: d.id, accountId: d.accountId, attemptsMade: 0 }));
  }

  async claim(accountId: AccountId, deliveryId: string, leaseUntil: Date, now: Date): Promise<ClaimedDelivery | ClaimRefusal> {
    const row = this.store.deliveries.find((d) => d.accountId === accountId && d.id === deliveryId);
    if (!row) return 'missing';
    if (row.status === 'succeeded' || row.status === 'failed') return 'settled';
    if (row.lockedUntil && row.lockedUntil >= now) return 'busy';
    if (row.nextAttemptAt && row.nextAttemptAt.getTime() > now.getTime() + 1000) return 'not_due';
    row.lockedUntil = leaseUntil;
    row.lockedBy = this.holder;
    const subscription = this.store.subscriptions.find((s) => s.accountId === accountId && s.id === row.subscriptionId);
    return {
      id: row.id,
      accountId,
      subscriptionId: row.subscriptionId,
      event: row.event,
      contactId: row.contactId,
      body: row.body,
      attemptsMade: row.attempt,
      lockedUntil: leaseUntil,
      subscription: subscription
        ? {
            url: subscription.url,
            secretCiphertext: subscription.secretCiphertext,
            previousSecretCiphertext: subscription.previousSecretExpiresAt && subscription.previousSecretExpiresAt > now ? (subscription.previousSecretCiphertext ?? null) : null,
            disabledReason: subscription.disabledReason ?? null,
            failingSince: subscription.failingSince ?? null,
          }
        : null,
    };
  }

  async prepareRedelivery(accountId: AccountId, deliveryId: string, subscriptionId: string | null, jobId: string, now: Date): Promise<{ subscriptionId: string; attemptsMade: number } | null> {
    const row = this.store.deliveries.find((d) => d.accountId === accountId && d.id === deliveryId && (subscriptionId === null || d.subscriptionId === subscriptionId));
    if (!row) return null;
    Object.assign(row, { status: row.attempt === 0 ? 'pending' : 'retrying', nextAttemptAt: now, jobId });
    return { subscriptionId: row.subscriptionId, attemptsMade: row.attempt };
  }

  async recordAttempt(claimed: ClaimedDelivery, recorded: RecordedAttempt): Promise<void> {
    this.store.attempts.push({ ...recorded, deliveryId: claimed.id });
    const subscription = this.store.subscriptions.find((s) => s.accountId === claimed.accountId && s.id === claimed.subscriptionId);
    if (subscription && claimed.subscription && !claimed.subscription.disabledReason) {
      if (recorded.decision.status === 'succeeded') subscription.failingSince = null;
      else subscription.failingSince ??= recorded.at;
    }
    const row = this.store.deliveries.find((d) => d.accountId === claimed.accountId && d.id === claimed.id);
    if (!row || row.lockedUntil?.getTime() !== claimed.lockedUntil.getTime()) return;
    Object.assign(row, {
      status: recorded.decision.status,
      attempt: recorded.attempt,
      responseStatus: recorded.answer.status,
      lastError: recorded.decision.error,
      nextAttemptAt: recorded.decision.nextAttemptAt,
      lockedUntil: null,
      lockedBy: null,
    });
  }

  async failWaiting(accountId: AccountId, subscriptionId: string, reason: string): Promise<void> {
    for (const row of this.store.deliveries) {
      if (row.accountId === accountId && row.subscriptionId === subscriptionId && (row.status === 'pending' || row.status === 'retrying')) {
        Object.assign(row, { status: 'failed', lastError: reason, nextAttemptAt: null });
      }
    }
  }

  async overdue(dueBefore: Date, now: Date, limit: number): Promise<OverdueDelivery[]> {
    return this.store.deliveries
      .filter((d) => (d.status === 'pending' || d.status === 'retrying') && d.nextAttemptAt !== null && d.nextAttemptAt <= dueBefore && (!d.lockedUntil || d.lockedUntil < now))
      .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime())
      .slice(0, limit)
      .map((d) => ({ id: d.id, accountId: d.accountId, attemptsMade: d.attempt, jobId: d.jobId ?? d.id }));
  }

  async releaseLeasesOf(workerIds: readonly string[]): Promise<OverdueDelivery[]> {
    const released = this.store.deliveries.filter((d) => (d.status === 'pending' || d.status === 'retrying') && d.lockedBy != null && workerIds.includes(d.lockedBy));
    for (const row of released) Object.assign(row, { lockedUntil: null, lockedBy: null });
    return released.map((d) => ({ id: d.id, accountId: d.accountId, attemptsMade: d.attempt, jobId: d.jobId ?? d.id }));
  }

  async assignJobs(assignments: { accountId: AccountId; deliveryId: string; jobId: string }[]): Promise<void> {
    for (const a of assignments) {
      const row = this.store.deliveries.find((d) => d.accountId === a.accountId && d.id === a.deliveryId);
      if (row) row.jobId = a.jobId;
    }
  }
}

/** {@link WebhookDeliveryScheduler} in memory: `jobs` by id (adding an existing id adds nothing), states set by the test. */
export class InMemoryDeliveryScheduler extends WebhookDeliveryScheduler {
  readonly jobs = new Map<string, DeliveryJobRequest>();
  readonly states = new Map<string, DeliveryJobState>();

  async schedule(requests: readonly DeliveryJobRequest[]): Promise<void> {
    for (const request of requests) if (!this.jobs.has(request.jobId)) this.jobs.set(request.jobId, request);
  }

  async stateOf(jobId: string): Promise<DeliveryJobState> {
    return this.states.get(jobId) ?? (this.jobs.has(jobId) ? 'queued' : 'gone');
  }
}

/** {@link WebhookSender} answering from a plan (default 200), recording every POST. */
export class FakeWebhookSender extends WebhookSender {
  readonly posts: { url: string; body: string; headers: Record<string, string> }[] = [];
  private readonly plan: Partial<ReceiverAnswer>[] = [];

  answer(...answers: Partial<ReceiverAnswer>[]): this {
    this.plan.push(...answers);
    return this;
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<ReceiverAnswer> {
    this.posts.push({ url, body, headers });
    return { status: 200, error: null, refused: false, durationMs: 12, ...(this.plan.shift() ?? {}) };
  }
}

/** {@link WebhookSecretVault} that "encrypts" by prefixing `enc:` (so tests can see a secret is never stored in clear). */
export class FakeSecretVault extends WebhookSecretVault {
  encrypt(secret: string): string {
    return `enc:${Buffer.from(secret).toString('base64')}`;
  }

  decrypt(stored: string): string {
    if (!stored.startsWith('enc:')) throw new Error('Unknown secret format');
    return Buffer.from(stored.slice(4), 'base64').toString();
  }
}

/** {@link WebhookTargetCheck} that accepts every URL unless told to refuse it with an error. */
export class FakeTargetCheck extends WebhookTargetCheck {
  refusal: Error | null = null;

  async check(): Promise<void> {
    if (this.refusal) throw this.refusal;
  }
}

/** {@link ContactSystemLookup} from a map contact id → System. */
export class FakeContactSystems extends ContactSystemLookup {
  readonly systems = new Map<string, { id: string; name: string }>();

  async systemOf(_accountId: string, contactId: string): Promise<{ id: string; name: string } | null> {
    return this.systems.get(contactId) ?? null;
  }
}

/** Delivery settings of the unit tests: 1 s base, 30 s lease, 60 s grace. */
export class FixedDeliverySettings extends WebhookDeliverySettings {
  readonly retryBaseMs = 1000;
  readonly leaseMs = 30_000;
  readonly sweepGraceMs = 60_000;
}
