import { SYSTEM_ACTOR, ValidationFailedError } from '@leadflow/shared-kernel';
import { InvalidWebhookTargetError, SubscriptionLimitReachedError } from '../../../domain/webhooks.errors';
import { webhooksTestKit } from '../../../testing/webhooks-test-kit';
import { CreateWebhookSubscriptionCommand } from './create-webhook-subscription.command';
import { CreateWebhookSubscriptionHandler } from './create-webhook-subscription.handler';

describe('CreateWebhookSubscriptionHandler', () => {
  const setup = () => {
    const kit = webhooksTestKit();
    const handler = new CreateWebhookSubscriptionHandler(kit.subscriptions, kit.vault, kit.targets, kit.unitOfWork, kit.journal, kit.clock);
    return { kit, handler, accountId: kit.account() };
  };

  it('creates the subscription with a 64-hex secret returned once and stored encrypted, and journals webhook_subscription_created', async () => {
    const { kit, handler, accountId } = setup();
    const created = await handler.execute(new CreateWebhookSubscriptionCommand(accountId, 'key-1', SYSTEM_ACTOR, 'https://hooks.example.com/a', ['lead_created', 'lead_created']));
    expect(created).toEqual({ id: expect.any(String), url: 'https://hooks.example.com/a', events: ['lead_created'], created_at: '2026-11-25T10:00:00.000Z', disabled_reason: null, secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(kit.store.subscriptions[0].secretCiphertext).not.toContain(created.secret);
    expect(kit.vault.decrypt(kit.store.subscriptions[0].secretCiphertext)).toBe(created.secret);
    expect(kit.journal.entries).toEqual([expect.objectContaining({ type: 'webhook_subscription_created', data: { subscription_id: created.id, url: created.url } })]);
  });

  it('reports url and events violations together (400 validation_error) and writes nothing', async () => {
    const { kit, handler, accountId } = setup();
    const error = await handler.execute(new CreateWebhookSubscriptionCommand(accountId, 'key-1', SYSTEM_ACTOR, 'http://x.example.com', ['nope'])).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect(error.details).toEqual([expect.objectContaining({ field: 'url', reason: 'https_required' }), expect.objectContaining({ field: 'events[0]', reason: 'unknown_event_type' })]);
    expect(kit.store.subscriptions).toEqual([]);
  });

  it('refuses a non-public target (the SSRF check) and writes nothing', async () => {
    const { kit, handler, accountId } = setup();
    kit.targets.refusal = new InvalidWebhookTargetError('non_public_target', 'no');
    await expect(handler.execute(new CreateWebhookSubscriptionCommand(accountId, 'key-1', SYSTEM_ACTOR, 'https://10.0.0.1/', '*'))).rejects.toBeInstanceOf(InvalidWebhookTargetError);
    expect(kit.store.subscriptions).toEqual([]);
  });

  it('caps the account at 10 subscriptions across keys (429 subscription_limit_reached): the 11th writes neither row nor journal entry', async () => {
    const { kit, handler, accountId } = setup();
    for (let i = 0; i < 10; i++) await handler.execute(new CreateWebhookSubscriptionCommand(accountId, `key-${i % 2}`, SYSTEM_ACTOR, `https://h.example.com/${i}`, '*'));
    const error = await handler.execute(new CreateWebhookSubscriptionCommand(accountId, 'key-3', SYSTEM_ACTOR, 'https://h.example.com/11', '*')).catch((e) => e);
    expect(error).toBeInstanceOf(SubscriptionLimitReachedError);
    expect(error.details).toEqual({ limit: 10 });
    expect(kit.store.subscriptions).toHaveLength(10);
    expect(kit.journal.entries).toHaveLength(10);
    // Another account is not affected.
    await expect(handler.execute(new CreateWebhookSubscriptionCommand(kit.account(), 'key-9', SYSTEM_ACTOR, 'https://h.example.com/x', '*'))).resolves.toBeDefined();
  });
});
