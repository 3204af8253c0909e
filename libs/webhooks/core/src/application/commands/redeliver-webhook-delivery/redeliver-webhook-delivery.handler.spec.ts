import { SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { RedeliverWebhookDeliveryCommand } from '@leadflow/webhooks-contracts';
import { storedBody } from '../../../domain/webhook-payload';
import { WebhookDeliveryNotFoundError, WebhookDisabledError, WebhookSubscriptionNotFoundError } from '../../../domain/webhooks.errors';
import { webhooksTestKit } from '../../../testing/webhooks-test-kit';
import { RedeliverWebhookDeliveryHandler } from './redeliver-webhook-delivery.handler';

describe('RedeliverWebhookDeliveryHandler', () => {
  const setup = () => {
    const kit = webhooksTestKit();
    const accountId = kit.account();
    kit.store.subscriptions.push({ id: 'sub', accountId, apiKeyId: 'k', url: 'https://h.example.com', selection: { all: true }, secretCiphertext: 'enc:', createdAt: kit.clock.now() });
    kit.store.deliveries.push({ id: 'd1', accountId, subscriptionId: 'sub', eventId: 'e', event: 'lead_created', contactId: null, body: storedBody('lead_created', kit.clock.now(), {}, SYSTEM_ACTOR), status: 'succeeded', attempt: 1, responseStatus: 200, lastError: null, nextAttemptAt: null, lockedUntil: null, jobId: null });
    const handler = new RedeliverWebhookDeliveryHandler(kit.subscriptions, kit.deliveries, kit.scheduler, kit.unitOfWork, kit.journal, kit.clock);
    return { kit, accountId, handler };
  };

  it('makes the delivery due now (same id, attempts kept), queues a job <id>.r<ms> with the attempts left and the requesting actor (its request trace), journals webhook_redelivery_requested', async () => {
    const { kit, accountId, handler } = setup();
    const result = await handler.execute(new RedeliverWebhookDeliveryCommand(accountId, 'd1', { subscriptionId: 'sub', apiKeyId: 'k' }, SYSTEM_ACTOR));
    const jobId = `d1.r${kit.clock.now().getTime()}`;
    expect(result).toEqual({ delivery_id: 'd1', subscription_id: 'sub', status: 'pending', requested_at: kit.clock.now().toISOString() });
    expect(kit.store.deliveries[0]).toMatchObject({ status: 'retrying', attempt: 1, nextAttemptAt: kit.clock.now(), jobId });
    expect([...kit.scheduler.jobs.values()]).toEqual([{ accountId, deliveryId: 'd1', attemptsMade: 1, jobId, requestedBy: SYSTEM_ACTOR }]);
    expect(kit.journal.entries).toEqual([expect.objectContaining({ type: 'webhook_redelivery_requested', data: { subscription_id: 'sub', delivery_id: 'd1' } })]);
  });

  it('the operator (no scope) may redeliver any delivery of the account', async () => {
    const { kit, accountId, handler } = setup();
    await expect(handler.execute(new RedeliverWebhookDeliveryCommand(accountId, 'd1', null, SYSTEM_ACTOR))).resolves.toMatchObject({ delivery_id: 'd1' });
    expect(kit.scheduler.jobs.size).toBe(1);
  });

  it('another key\'s or account\'s subscription is 404 not_found (webhook); another subscription\'s or a missing delivery is 404 not_found (webhook_delivery); nothing queued', async () => {
    const { kit, accountId, handler } = setup();
    await expect(handler.execute(new RedeliverWebhookDeliveryCommand(accountId, 'd1', { subscriptionId: 'sub', apiKeyId: 'k2' }, SYSTEM_ACTOR))).rejects.toBeInstanceOf(WebhookSubscriptionNotFoundError);
    await expect(handler.execute(new RedeliverWebhookDeliveryCommand(kit.account(), 'd1', null, SYSTEM_ACTOR))).rejects.toBeInstanceOf(WebhookDeliveryNotFoundError);
    kit.store.subscriptions.push({ ...kit.store.subscriptions[0], id: 'sub2' });
    const error = await handler.execute(new RedeliverWebhookDeliveryCommand(accountId, 'd1', { subscriptionId: 'sub2', apiKeyId: 'k' }, SYSTEM_ACTOR)).catch((e) => e);
    expect(error).toBeInstanceOf(WebhookDeliveryNotFoundError);
    expect(error.details).toEqual({ resource: 'webhook_delivery' });
    expect(kit.scheduler.jobs.size).toBe(0);
    expect(kit.store.deliveries[0].status).toBe('succeeded');
  });

  it('a disabled subscription answers 422 business_rule_violation webhook_disabled with its disabled_reason', async () => {
    const { kit, accountId, handler } = setup();
    kit.store.subscriptions[0].disabledReason = 'endpoint_gone';
    const error = await handler.execute(new RedeliverWebhookDeliveryCommand(accountId, 'd1', { subscriptionId: 'sub', apiKeyId: 'k' }, SYSTEM_ACTOR)).catch((e) => e);
    expect(error).toBeInstanceOf(WebhookDisabledError);
    expect(error.details).toEqual({ reason: 'webhook_disabled', disabled_reason: 'endpoint_gone' });
  });
});
