import { newId, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { webhooksTestKit } from '../../../testing/webhooks-test-kit';
import { FanOutWebhookEventCommand } from './fan-out-webhook-event.command';
import { FanOutWebhookEventHandler } from './fan-out-webhook-event.handler';

describe('FanOutWebhookEventHandler', () => {
  const setup = () => {
    const kit = webhooksTestKit();
    const accountId = kit.account();
    const sub = (id: string, selection: { all: true } | { all: false; events: ('lead_created' | 'note_created')[] }, account = accountId) =>
      kit.store.subscriptions.push({ id, accountId: account, apiKeyId: 'k', url: `https://h.example.com/${id}`, selection, secretCiphertext: 'enc:', createdAt: kit.clock.now() });
    const handler = new FanOutWebhookEventHandler(kit.subscriptions, kit.deliveries, kit.scheduler, kit.clock);
    const event = (type: string, payload: Record<string, unknown> = {}) => ({ id: newId(), type, accountId, occurredAt: kit.clock.now(), payload, actor: SYSTEM_ACTOR });
    return { kit, handler, accountId, sub, event };
  };

  it('creates one pending delivery per matching subscription ("*" or the name) and queues each once, job id = delivery id', async () => {
    const { kit, handler, sub, event } = setup();
    sub('all', { all: true });
    sub('named', { all: false, events: ['lead_created'] });
    sub('other', { all: false, events: ['note_created'] });
    sub('stranger', { all: true }, kit.account());
    const lead = event('lead_created', { contact_id: 'not-a-uuid', password: 'x' });
    const result = await handler.execute(new FanOutWebhookEventCommand(lead));
    expect(result).toEqual({ deliveries: 2 });
    expect(kit.store.deliveries.map((d) => d.subscriptionId).sort()).toEqual(['all', 'named']);
    expect(kit.store.deliveries[0]).toMatchObject({ status: 'pending', attempt: 0, contactId: null, body: expect.objectContaining({ data: { contact_id: 'not-a-uuid', password: '[REDACTED]' } }) });
    // The jobs name the event and the api request that produced it (none here), for the attempts' log lines.
    expect([...kit.scheduler.jobs.values()]).toEqual(
      kit.store.deliveries.map((d) => ({ accountId: d.accountId, deliveryId: d.id, attemptsMade: 0, jobId: d.id, eventId: lead.id, requestId: null })),
    );
  });

  it('is idempotent: the same event consumed twice creates and queues nothing new', async () => {
    const { kit, handler, sub, event } = setup();
    sub('all', { all: true });
    const command = new FanOutWebhookEventCommand(event('lead_created'));
    await handler.execute(command);
    await handler.execute(command);
    expect(kit.store.deliveries).toHaveLength(1);
    expect(kit.scheduler.jobs.size).toBe(1);
  });

  it('never delivers internal event types, and an event nobody listens to writes nothing', async () => {
    const { kit, handler, sub, event } = setup();
    sub('named', { all: false, events: ['note_created'] });
    expect(await handler.execute(new FanOutWebhookEventCommand(event('contact_archived')))).toEqual({ deliveries: 0 });
    expect(await handler.execute(new FanOutWebhookEventCommand(event('lead_created')))).toEqual({ deliveries: 0 });
    expect(kit.store.deliveries).toEqual([]);
    expect(kit.store.samples).toEqual([]);
  });
});
