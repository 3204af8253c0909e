import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig, TransactionHost } from '@leadflow/shared-platform';
import { DELIVER_WEBHOOK_JOB, DeliverWebhookJob, deliverWebhookJobOptions, WEBHOOK_DELIVERY_QUEUE } from './webhook-delivery.job';

/** Deliveries re-scheduled per sweep at most. */
export const SWEEP_BATCH = 500;

/**
 * Durability of deliveries when their BullMQ job is lost (Redis outage or flush, worker killed in the
 * middle of an attempt, failure to schedule the next attempt): every `WEBHOOK_SWEEP_INTERVAL_MS` the
 * worker looks for deliveries still `pending` or `retrying` whose `next_attempt_at` passed more than
 * `WEBHOOK_SWEEP_GRACE_MS` ago and that no live attempt holds (lease expired), and schedules them
 * again (a job id with a sweep suffix, so it never collides with a completed job). A duplicate job is
 * harmless: the attempt's claim lets one run through. The scan uses the small partial index of the
 * deliveries in flight.
 */
@Injectable()
export class WebhookDeliverySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookDeliverySweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private inFlight: Promise<unknown> | null = null;

  constructor(
    private readonly transactions: TransactionHost,
    @InjectQueue(WEBHOOK_DELIVERY_QUEUE) private readonly queue: Queue<DeliverWebhookJob>,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.schedule(Math.min(1000, this.config.webhookDelivery.sweepIntervalMs));
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  /** One sweep; returns the ids scheduled again. */
  async sweep(): Promise<string[]> {
    const now = this.clock.now();
    const dueBefore = new Date(now.getTime() - this.config.webhookDelivery.sweepGraceMs);
    const rows: { id: string; account_id: string; attempt: number }[] = await this.transactions.manager.query(
      `SELECT id, account_id, attempt FROM webhooks.deliveries
        WHERE status IN ('pending', 'retrying') AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until < $2)
        ORDER BY next_attempt_at LIMIT $3`,
      [dueBefore, now, SWEEP_BATCH],
    );
    if (rows.length === 0) return [];
    const suffix = `.s${now.getTime()}`;
    let timer: NodeJS.Timeout | undefined;
    const redisTimeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Redis did not answer within 5 s')), 5000);
    });
    await Promise.race([
      this.queue.addBulk(
        rows.map((row) => ({
          name: DELIVER_WEBHOOK_JOB,
          data: { accountId: row.account_id, deliveryId: row.id },
          opts: deliverWebhookJobOptions(row.id, row.attempt + 1, 0, suffix),
        })),
      ),
      redisTimeout,
    ]).finally(() => clearTimeout(timer));
    this.logger.log({ deliveries: rows.length }, 'Webhook deliveries scheduled again by the sweeper');
    return rows.map((row) => row.id);
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.inFlight = this.sweep()
        .catch((error: unknown) => this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Webhook sweep failed; will retry'))
        .finally(() => {
          this.inFlight = null;
          this.schedule(this.config.webhookDelivery.sweepIntervalMs);
        });
    }, delayMs);
  }
}
