import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { JobState, Queue } from 'bullmq';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig, TransactionHost } from '@leadflow/shared-platform';
import { DELIVER_WEBHOOK_JOB, DeliverWebhookJob, deliverWebhookJobOptions, WEBHOOK_DELIVERY_QUEUE } from './webhook-delivery.job';

/** Deliveries looked at per sweep at most. */
export const SWEEP_BATCH = 500;

/** States of an attempt job that is still on its way to a worker: its delivery is late (a backlog), not lost. */
const QUEUED_STATES: ReadonlySet<JobState | 'unknown'> = new Set<JobState | 'unknown'>(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/** Length of a sweep window (ms): every worker's sweeps of one window give a lost delivery the same job id. */
const SWEEP_WINDOW_MS = 60_000;

/**
 * Durability of deliveries when their BullMQ job is lost (Redis outage or flush, worker killed in the
 * middle of an attempt, failure to schedule the next attempt): every `WEBHOOK_SWEEP_INTERVAL_MS` the
 * worker looks for deliveries still `pending` or `retrying` whose `next_attempt_at` passed more than
 * `WEBHOOK_SWEEP_GRACE_MS` ago and that no live attempt holds (lease expired), and schedules them again.
 *
 * Several workers sweep the same table (scale-out), so a sweep adds as few jobs as it can:
 * - a delivery whose attempt job (`<delivery>.<attempt>`) is still waiting, delayed or prioritized in the
 *   queue is only late behind a backlog, and one whose job a worker took less than `WEBHOOK_LEASE_MS` ago
 *   is about to be claimed: neither gets a second job (a job taken longer ago may belong to a dead
 *   worker, so it does not count);
 * - a lost one gets the job id `<delivery>.<attempt>.m<minute>`: every sweep of every worker in that
 *   minute adds one job; a later minute may add another if that job did not settle the delivery.
 * A duplicate job is harmless anyway: the attempt's claim lets one run through. The scan uses the small
 * partial index of the deliveries in flight; the queue check is one Redis script per candidate (two
 * when its job is active).
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

  /** One sweep; returns the ids of the deliveries scheduled again (the lost ones). */
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
    const suffix = `.m${Math.floor(now.getTime() / SWEEP_WINDOW_MS)}`;
    let timer: NodeJS.Timeout | undefined;
    const redisTimeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Redis did not answer within 5 s')), 5000);
    });
    const reschedule = async () => {
      const underway = await Promise.all(rows.map((row) => this.jobUnderway(`${row.id}.${row.attempt + 1}`, now)));
      const lost = rows.filter((_, index) => !underway[index]);
      if (lost.length > 0) {
        await this.queue.addBulk(
          lost.map((row) => ({
            name: DELIVER_WEBHOOK_JOB,
            data: { accountId: row.account_id, deliveryId: row.id },
            opts: deliverWebhookJobOptions(row.id, row.attempt + 1, 0, suffix),
          })),
        );
      }
      return lost;
    };
    const lost = await Promise.race([reschedule(), redisTimeout]).finally(() => clearTimeout(timer));
    if (lost.length > 0) this.logger.log({ deliveries: lost.length, late: rows.length - lost.length }, 'Webhook deliveries scheduled again by the sweeper');
    return lost.map((row) => row.id);
  }

  /** True when the attempt job is queued, or was taken by a worker less than a lease (`WEBHOOK_LEASE_MS`) before `now`. */
  private async jobUnderway(jobId: string, now: Date): Promise<boolean> {
    const state = await this.queue.getJobState(jobId);
    if (QUEUED_STATES.has(state)) return true;
    if (state !== 'active') return false;
    const job = await this.queue.getJob(jobId);
    return job?.processedOn !== undefined && now.getTime() - job.processedOn < this.config.webhookDelivery.leaseMs;
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
