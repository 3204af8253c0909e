import { SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { storedBody } from '../../../domain/webhook-payload';
import { webhooksTestKit } from '../../../testing/webhooks-test-kit';
import { RescheduleLostDeliveriesCommand } from './reschedule-lost-deliveries.command';
import { RescheduleLostDeliveriesHandler } from './reschedule-lost-deliveries.handler';

describe('RescheduleLostDeliveriesHandler (the safety net for lost jobs)', () => {
  it('queues again only overdue deliveries whose job is gone, with the attempts left, and notes the new job on the row', async () => {
    const kit = webhooksTestKit();
    const accountId = kit.account();
    const overdue = new Date(kit.clock.now().getTime() - 5 * 60_000);
    const row = (id: string, attempt: number, nextAttemptAt: Date) =>
      kit.store.deliveries.push({ id, accountId, subscriptionId: 's', eventId: id, event: 'lead_created', contactId: null, body: storedBody('lead_created', overdue, {}, SYSTEM_ACTOR), status: attempt ? 'retrying' : 'pending', attempt, responseStatus: null, lastError: null, nextAttemptAt, lockedUntil: null, jobId: null });
    row('lost', 3, overdue);
    row('queued', 0, overdue);
    row('running', 0, overdue);
    row('recent', 0, new Date(kit.clock.now().getTime() - 1000));
    kit.scheduler.states.set('queued', 'queued');
    kit.scheduler.states.set('running', 'running');
    const handler = new RescheduleLostDeliveriesHandler(kit.deliveries, kit.scheduler, kit.settings, kit.clock);

    const swept = await handler.execute(new RescheduleLostDeliveriesCommand());

    const jobId = `lost.m${Math.floor(kit.clock.now().getTime() / 60_000)}`;
    expect(swept).toEqual(['lost']);
    expect([...kit.scheduler.jobs.values()]).toEqual([{ accountId, deliveryId: 'lost', attemptsMade: 3, jobId }]);
    expect(kit.store.deliveries.find((d) => d.id === 'lost')?.jobId).toBe(jobId);
    // The next sweep of the same minute finds the new job queued: nothing more.
    expect(await handler.execute(new RescheduleLostDeliveriesCommand())).toEqual([]);
  });
});
