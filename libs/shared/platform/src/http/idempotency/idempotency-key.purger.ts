import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Poller } from '../../scheduling/poller';
import { IdempotencyStore } from './idempotency.store';

/** Pause between two purges (ms): an expired key is erased at most about this long after its 24 hours. */
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 5 * 60 * 1000;

/**
 * The worker's loop that ERASES expired Idempotency-Keys (public-api-v1 › Limits: kept 24 hours), their
 * stored replays included, which may hold a secret (encrypted: docs/adr/0002-idempotent-creates-with-secrets.md).
 * Until then an expired row is only hidden (`IdempotencyStore.claim` no longer replays it). Every
 * {@link IDEMPOTENCY_PURGE_INTERVAL_MS} (up to 20 % jitter, so workers started together do not purge in
 * step; two purging at once is harmless), the first 30 s after boot; a failed pass is logged and the next
 * one tries again. Registered by the worker app only.
 */
@Injectable()
export class IdempotencyKeyPurger implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyKeyPurger.name);
  private readonly poller: Poller;

  constructor(private readonly store: IdempotencyStore) {
    this.poller = new Poller({
      name: 'Idempotency-Key purge',
      intervalMs: IDEMPOTENCY_PURGE_INTERVAL_MS,
      initialDelayMs: 30_000,
      jitter: 0.2,
      pass: async () => void (await this.purge()),
    });
  }

  onApplicationBootstrap(): void {
    this.poller.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.poller.stop();
  }

  /** One pass: deletes every expired key; returns how many rows were erased. Throws when PostgreSQL fails. */
  async purge(): Promise<number> {
    const erased = await this.store.purgeExpired();
    if (erased > 0) this.logger.log({ erased }, 'Expired Idempotency-Keys erased');
    return erased;
  }
}
