import { SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { storedBody } from '../../../domain/webhook-payload';
import { webhooksTestKit } from '../../../testing/webhooks-test-kit';
import { TakeOverDeliveriesCommand } from './take-over-deliveries.command';
import { TakeOverDeliveriesHandler } from './take-over-deliveries.handler';

describe('TakeOverDeliveriesHandler (lease takeover, docs/adr/0004)', () => {
  it("queues again at once the attempts a dead worker leased, leaves a live worker's leases alone, and a second takeover finds nothing", async () => {
    const kit = webhooksTestKit();
    const accountId = kit.account();
    const now = kit.clock.now();
    const leaseUntil = new Date(now.getTime() + 15_000);
    const row = (id: string, lockedBy: string | null, status: 'pending' | 'retrying' | 'succeeded', attempt: number) =>
      kit.store.deliveries.push({ id, accountId, subscriptionId: 's', eventId: id, event: 'lead_created', contactId: null, body: storedBody('lead_created', now, {}, SYSTEM_ACTOR), status, attempt, responseStatus: null, lastError: null, nextAttemptAt: now, lockedUntil: lockedBy ? leaseUntil : null, lockedBy, jobId: id });
    row('dead-first', 'dead', 'pending', 0);
    row('dead-retry', 'dead', 'retrying', 4);
    row('live', 'live', 'pending', 0);
    row('done', null, 'succeeded', 1);
    const handler = new TakeOverDeliveriesHandler(kit.deliveries, kit.scheduler, kit.clock);

    const taken = await handler.execute(new TakeOverDeliveriesCommand(['dead']));

    expect(taken.sort()).toEqual(['dead-first', 'dead-retry']);
    const suffix = `.t${now.getTime()}`;
    expect([...kit.scheduler.jobs.values()].sort((a, b) => a.deliveryId.localeCompare(b.deliveryId))).toEqual([
      { accountId, deliveryId: 'dead-first', attemptsMade: 0, jobId: `dead-first${suffix}` },
      { accountId, deliveryId: 'dead-retry', attemptsMade: 4, jobId: `dead-retry${suffix}` },
    ]);
    const byId = (id: string) => kit.store.deliveries.find((d) => d.id === id);
    expect(byId('dead-first')).toMatchObject({ lockedUntil: null, lockedBy: null, jobId: `dead-first${suffix}` });
    expect(byId('live')).toMatchObject({ lockedUntil: leaseUntil, lockedBy: 'live' });
    expect(await handler.execute(new TakeOverDeliveriesCommand(['dead']))).toEqual([]);
  });
});
