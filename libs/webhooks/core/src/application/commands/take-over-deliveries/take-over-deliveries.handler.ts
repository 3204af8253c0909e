import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import { WebhookDeliveryScheduler } from '../../ports/webhook-delivery.scheduler.port';
import { TakeOverDeliveriesCommand } from './take-over-deliveries.command';

/**
 * Lease takeover (docs/adr/0004): the deliveries whose attempt a dead worker was making (its lease still
 * running, `locked_by` naming it) are released and queued again at once, with a new job
 * `<delivery>.t<ms>` carrying the remaining attempts (the dead worker's job is still `active` in BullMQ
 * until its lock runs out; when it runs again its claim finds the delivery settled or leased and does
 * nothing). The POST the dead worker may have made is made again: at-least-once, receivers deduplicate on
 * `X-Service-Delivery`. Released but not queued (Redis down): the sweeper finds them once overdue.
 */
@CommandHandler(TakeOverDeliveriesCommand)
export class TakeOverDeliveriesHandler implements ICommandHandler<TakeOverDeliveriesCommand> {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly scheduler: WebhookDeliveryScheduler,
    private readonly clock: Clock,
  ) {}

  async execute({ deadWorkerIds }: TakeOverDeliveriesCommand): Promise<string[]> {
    const now = this.clock.now();
    const released = await this.deliveries.releaseLeasesOf(deadWorkerIds, now);
    if (released.length === 0) return [];
    const requests = released.map((d) => ({ accountId: d.accountId, deliveryId: d.id, attemptsMade: d.attemptsMade, jobId: `${d.id}.t${now.getTime()}` }));
    await this.scheduler.schedule(requests);
    await this.deliveries.assignJobs(requests.map((r) => ({ accountId: r.accountId, deliveryId: r.deliveryId, jobId: r.jobId })));
    return released.map((d) => d.id);
  }
}
