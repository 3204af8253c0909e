import { webhooksTestKit } from '../../../testing/webhooks-test-kit';
import { ListWebhookSubscriptionsHandler } from './list-webhook-subscriptions.handler';
import { ListWebhookSubscriptionsQuery } from './list-webhook-subscriptions.query';

describe('ListWebhookSubscriptionsHandler', () => {
  it('lists the calling key\'s subscriptions only, newest first, never the secret', async () => {
    const kit = webhooksTestKit();
    const accountId = kit.account();
    const at = (minutes: number) => new Date(kit.clock.now().getTime() + minutes * 60_000);
    kit.store.subscriptions.push(
      { id: 'old', accountId, apiKeyId: 'k', url: 'https://a.example.com', selection: { all: true }, secretCiphertext: 'enc:x', createdAt: at(0) },
      { id: 'new', accountId, apiKeyId: 'k', url: 'https://b.example.com', selection: { all: false, events: ['lead_created'] }, secretCiphertext: 'enc:x', createdAt: at(1) },
      { id: 'other-key', accountId, apiKeyId: 'k2', url: 'https://c.example.com', selection: { all: true }, secretCiphertext: 'enc:x', createdAt: at(2) },
    );
    const page = await new ListWebhookSubscriptionsHandler(kit.subscriptions).execute(new ListWebhookSubscriptionsQuery(accountId, 'k'));
    expect(page.data).toEqual([
      { id: 'new', url: 'https://b.example.com', events: ['lead_created'], created_at: at(1).toISOString(), disabled_reason: null },
      { id: 'old', url: 'https://a.example.com', events: '*', created_at: at(0).toISOString(), disabled_reason: null },
    ]);
    expect(page.pagination).toEqual({ next_cursor: null, has_more: false, limit: 2, total_count: 2 });
  });
});
