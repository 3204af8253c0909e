import { Injectable } from '@nestjs/common';
import { Actor, Clock, Journal, newId } from '@leadflow/shared-kernel';
import { requestTraceOf, withRequestTrace } from '@leadflow/shared-platform';
import { DeliveryJobRequest, DeliveryJobState, WEBHOOK_DELIVERY_REQUESTED, WebhookDeliveryScheduler } from '@leadflow/webhooks-core';

/**
 * {@link WebhookDeliveryScheduler} of the api, which holds no queue: each request becomes an internal
 * outbox event {@link WEBHOOK_DELIVERY_REQUESTED} in the current unit of work (so it commits with the
 * write that asked for it), and the worker's webhooks consumer queues the job. `stateOf` is never asked
 * in the api (only the worker sweeps) and answers `queued`. The event's actor is nobody's (it is never
 * delivered nor shown) but carries the request trace of the write that asked for the job (`requestedBy`,
 * a redelivery), so its outbox row gets the request id and the worker names it on the attempts' lines.
 */
@Injectable()
export class OutboxWebhookDeliveryScheduler extends WebhookDeliveryScheduler {
  constructor(
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {
    super();
  }

  async schedule(requests: readonly DeliveryJobRequest[]): Promise<void> {
    if (requests.length === 0) return;
    const now = this.clock.now();
    await this.journal.publish(
      requests.map((r) => ({
        id: newId(),
        type: WEBHOOK_DELIVERY_REQUESTED,
        accountId: r.accountId,
        occurredAt: now,
        payload: { delivery_id: r.deliveryId, job_id: r.jobId, attempts_made: r.attemptsMade },
        actor: withRequestTrace<Actor>({ type: null, id: null, name: null, via: null }, requestTraceOf(r.requestedBy)),
      })),
    );
  }

  async stateOf(): Promise<DeliveryJobState> {
    return 'queued';
  }
}
