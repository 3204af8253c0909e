import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AppConfig, Poller, WorkerLeases } from '@leadflow/shared-platform';
import { EraseExpiredWebhookSecretsCommand, RescheduleLostDeliveriesCommand, TakeOverDeliveriesCommand } from '@leadflow/webhooks-core';

/** Deliveries looked at per sweep at most. */
export const SWEEP_BATCH = 500;

/** Longest wait for one sweep (Redis down: the next sweep tries again). */
const SWEEP_TIMEOUT_MS = 5000;

/**
 * SAFETY NET ONLY. Retries are BullMQ's (`attempts` + the retry schedule as a custom backoff); this loop
 * only finds deliveries whose job was LOST (Redis outage or flush, worker killed mid-attempt) and queues
 * them again from PostgreSQL, every `WEBHOOK_SWEEP_INTERVAL_MS` (the platform's {@link Poller}), by
 * dispatching {@link RescheduleLostDeliveriesCommand} (which says what counts as lost). Several workers
 * may sweep together: a lost delivery gets one job per minute whoever sweeps. Each pass also erases the
 * previous secrets whose 24-hour rotation overlap ended ({@link EraseExpiredWebhookSecretsCommand}).
 * In the worker it also registers the takeover of a dead worker's attempts with {@link WorkerLeases}
 * ({@link TakeOverDeliveriesCommand}: queued again at once, not when their lease runs out).
 */
@Injectable()
export class WebhookDeliverySweeper implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookDeliverySweeper.name);
  private readonly poller: Poller;

  constructor(
    private readonly commands: CommandBus,
    config: AppConfig,
    // The token is explicit: decorator metadata records `WorkerLeases | null` as `Object`, and nothing was injected.
    @Optional() @Inject(WorkerLeases) private readonly leases: WorkerLeases | null = null,
  ) {
    this.poller = new Poller({
      name: 'Webhook sweep',
      intervalMs: config.webhookDelivery.sweepIntervalMs,
      initialDelayMs: Math.min(1000, config.webhookDelivery.sweepIntervalMs),
      pass: async () => {
        await this.sweep();
      },
      onError: (error) => {
        this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Webhook sweep failed; will retry');
      },
    });
  }

  onModuleInit(): void {
    this.leases?.onTakeover('webhook deliveries', async (deadWorkerIds) => {
      const taken = await this.commands.execute(new TakeOverDeliveriesCommand(deadWorkerIds));
      if (taken.length > 0) this.logger.warn({ deliveries: taken.length }, 'Webhook attempts of a dead worker taken over and queued again');
      return taken.length;
    });
  }

  onApplicationBootstrap(): void {
    this.poller.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.poller.stop();
  }

  /** One sweep; answers the ids of the deliveries queued again (the lost ones). */
  async sweep(): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`The sweep did not finish within ${SWEEP_TIMEOUT_MS / 1000} s`)), SWEEP_TIMEOUT_MS);
    });
    const lost = await Promise.race([this.commands.execute(new RescheduleLostDeliveriesCommand(SWEEP_BATCH)), timeout]).finally(() => clearTimeout(timer));
    if (lost.length > 0) this.logger.log({ deliveries: lost.length }, 'Webhook deliveries whose job was lost queued again by the sweeper');
    await this.commands.execute(new EraseExpiredWebhookSecretsCommand());
    return lost;
  }
}
