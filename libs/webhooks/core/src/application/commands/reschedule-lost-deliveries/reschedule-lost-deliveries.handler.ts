import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import { WebhookDeliveryScheduler } from '../../ports/webhook-delivery.scheduler.port';
import { WebhookDeliverySettings } from '../../ports/webhook-sender.port';
import { RescheduleLostDeliveriesCommand } from './reschedule-lost-deliveries.command';

/** Length of a sweep window (ms): every worker's sweeps of one window give a lost delivery the same job id. */
export const SWEEP_WINDOW_MS = 60_000;

/**
 * The safety net for LOST jobs only. Retries are BullMQ's own (`attempts` + the schedule as a custom
 * backoff, see the delivery job); this pass exists because Redis is not the source of truth: a job can
 * vanish (Redis outage or flush, a worker killed in the middle of an attempt, a job whose BullMQ attempts
 * ran out on infrastructure errors while its delivery still waits). It looks for deliveries still
 * `pending` or `retrying` whose due time passed more than `WEBHOOK_SWEEP_GRACE_MS` ago and that no live
 * attempt leases, and whose job (the one the row names) is neither queued nor running: those get a new
 * job `<delivery>.m<minute>` (every sweep of every worker in that minute adds the same one) carrying the
 * remaining attempts, and the row names it. A duplicate job is harmless: the claim lets one attempt through.
 */
@CommandHandler(RescheduleLostDeliveriesCommand)
export class RescheduleLostDeliveriesHandler implements ICommandHandler<RescheduleLostDeliveriesCommand> {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly scheduler: WebhookDeliveryScheduler,
    private readonly settings: WebhookDeliverySettings,
    private readonly clock: Clock,
  ) {}

  async execute({ limit }: RescheduleLostDeliveriesCommand): Promise<string[]> {
    const now = this.clock.now();
    const candidates = await this.deliveries.overdue(new Date(now.getTime() - this.settings.sweepGraceMs), now, limit);
    if (candidates.length === 0) return [];
    const states = await Promise.all(candidates.map((c) => this.scheduler.stateOf(c.jobId, now, this.settings.leaseMs)));
    const lost = candidates.filter((_, index) => states[index] === 'gone');
    if (lost.length === 0) return [];
    const suffix = `.m${Math.floor(now.getTime() / SWEEP_WINDOW_MS)}`;
    const requests = lost.map((d) => ({ accountId: d.accountId, deliveryId: d.id, attemptsMade: d.attemptsMade, jobId: `${d.id}${suffix}` }));
    await this.scheduler.schedule(requests);
    await this.deliveries.assignJobs(requests.map((r) => ({ accountId: r.accountId, deliveryId: r.deliveryId, jobId: r.jobId })));
    return lost.map((d) => d.id);
  }
}
