import { ListAccountWebhookSubscriptionsQuery } from '@leadflow/webhooks-contracts';
import { webhooksTestKit } from '../../../testing/webhooks-test-kit';
import { ListAccountWebhookSubscriptionsHandler } from './list-account-webhook-subscriptions.handler';

describe('ListAccountWebhookSubscriptionsHandler (operator console)', () => {
  it("lists every key's subscriptions of the account, newest first, with the key and the disabled reason, never the secret; another account's never", async () => {
    const kit = webhooksTestKit();
    const accountId = kit.account();
    const other = kit.account();
    const at = (minutes: number) => new Date(kit.clock.now().getTime() + minutes * 60_000);
    kit.store.subscriptions.push(
      { id: 'old', accountId, apiKeyId: 'k', url: 'https://a.example.com', selection: { all: true }, secretCiphertext: 'enc:x', createdAt: at(0) },
      { id: 'new', accountId, apiKeyId: 'k2', url: 'https://b.example.com', selection: { all: false, events: ['lead_created'] }, secretCiphertext: 'enc:x', createdAt: at(1), disabledReason: 'endpoint_gone' },
      { id: 'theirs', accountId: other, apiKeyId: 'k3', url: 'https://c.example.com', selection: { all: true }, secretCiphertext: 'enc:x', createdAt: at(2) },
    );
    const listed = await new ListAccountWebhookSubscriptionsHandler(kit.subscriptions).execute(new ListAccountWebhookSubscriptionsQuery(accountId));
    expect(listed).toEqual([
      { id: 'new', url: 'https://b.example.com', events: ['lead_created'], api_key_id: 'k2', created_at: at(1).toISOString(), disabled_reason: 'endpoint_gone' },
      { id: 'old', url: 'https://a.example.com', events: '*', api_key_id: 'k', created_at: at(0).toISOString(), disabled_reason: null },
    ]);
    expect(JSON.stringify(listed)).not.toContain('enc:');
  });
});
