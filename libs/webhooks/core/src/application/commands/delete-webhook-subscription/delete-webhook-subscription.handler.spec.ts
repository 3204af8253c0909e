import { SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { WebhookSubscriptionNotFoundError } from '../../../domain/webhooks.errors';
import { webhooksTestKit } from '../../../testing/webhooks-test-kit';
import { DeleteWebhookSubscriptionCommand } from './delete-webhook-subscription.command';
import { DeleteWebhookSubscriptionHandler } from './delete-webhook-subscription.handler';

describe('DeleteWebhookSubscriptionHandler', () => {
  const setup = () => {
    const kit = webhooksTestKit();
    const accountId = kit.account();
    kit.store.subscriptions.push({ id: 'sub-1', accountId, apiKeyId: 'key-1', url: 'https://h.example.com', selection: { all: true }, secretCiphertext: 'enc:', createdAt: kit.clock.now() });
    const handler = new DeleteWebhookSubscriptionHandler(kit.subscriptions, kit.deliveries, kit.unitOfWork, kit.journal, kit.clock);
    return { kit, handler, accountId };
  };

  it('deletes the key\'s subscription, fails its waiting deliveries (subscription_deleted) and journals webhook_subscription_deleted', async () => {
    const { kit, handler, accountId } = setup();
    kit.store.deliveries.push({ id: 'd1', accountId, subscriptionId: 'sub-1', eventId: 'e', event: 'lead_created', contactId: null, body: {} as never, status: 'retrying', attempt: 2, responseStatus: 500, lastError: 'HTTP 500', nextAttemptAt: kit.clock.now(), lockedUntil: null, jobId: null });
    await handler.execute(new DeleteWebhookSubscriptionCommand(accountId, 'key-1', SYSTEM_ACTOR, 'sub-1'));
    expect(kit.store.subscriptions).toEqual([]);
    expect(kit.store.deliveries[0]).toMatchObject({ status: 'failed', lastError: 'subscription_deleted', nextAttemptAt: null });
    expect(kit.journal.entries).toEqual([expect.objectContaining({ type: 'webhook_subscription_deleted', data: { subscription_id: 'sub-1', url: 'https://h.example.com' } })]);
  });

  it.each([
    ['another key of the account', 'same', 'key-2'],
    ['another account', 'other', 'key-1'],
  ])('answers 404 not_found for %s and changes nothing', async (_, account, key) => {
    const { kit, handler, accountId } = setup();
    const error = await handler.execute(new DeleteWebhookSubscriptionCommand(account === 'same' ? accountId : kit.account(), key, SYSTEM_ACTOR, 'sub-1')).catch((e) => e);
    expect(error).toBeInstanceOf(WebhookSubscriptionNotFoundError);
    expect(error.details).toEqual({ resource: 'webhook' });
    expect(kit.store.subscriptions).toHaveLength(1);
    expect(kit.journal.entries).toEqual([]);
  });
});
