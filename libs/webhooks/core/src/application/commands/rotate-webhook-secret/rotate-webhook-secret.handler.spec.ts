import { SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { WebhookSubscriptionNotFoundError } from '../../../domain/webhooks.errors';
import { webhooksTestKit } from '../../../testing/webhooks-test-kit';
import { EraseExpiredWebhookSecretsHandler } from '../erase-expired-webhook-secrets/erase-expired-webhook-secrets.handler';
import { RotateWebhookSecretCommand } from './rotate-webhook-secret.command';
import { RotateWebhookSecretHandler } from './rotate-webhook-secret.handler';

describe('RotateWebhookSecretHandler', () => {
  const setup = () => {
    const kit = webhooksTestKit();
    const accountId = kit.account();
    kit.store.subscriptions.push({ id: 'sub', accountId, apiKeyId: 'k', url: 'https://h.example.com', selection: { all: true }, secretCiphertext: kit.vault.encrypt('old'), createdAt: kit.clock.now() });
    const handler = new RotateWebhookSecretHandler(kit.subscriptions, kit.vault, kit.unitOfWork, kit.journal, kit.clock);
    return { kit, accountId, handler };
  };

  it('returns the new secret once, keeps the old one signing for 24 hours (encrypted), journals webhook_secret_rotated without any secret', async () => {
    const { kit, accountId, handler } = setup();
    const rotated = await handler.execute(new RotateWebhookSecretCommand(accountId, 'k', SYSTEM_ACTOR, 'sub'));
    expect(rotated).toEqual({ id: 'sub', secret: expect.stringMatching(/^[0-9a-f]{64}$/), previous_secret_expires_at: '2026-11-26T10:00:00.000Z' });
    const row = kit.store.subscriptions[0];
    expect(kit.vault.decrypt(row.secretCiphertext)).toBe(rotated.secret);
    expect(kit.vault.decrypt(row.previousSecretCiphertext!)).toBe('old');
    expect(JSON.stringify(kit.journal.entries)).not.toContain(rotated.secret);
    expect(kit.journal.entries).toEqual([expect.objectContaining({ type: 'webhook_secret_rotated', data: { subscription_id: 'sub', previous_secret_expires_at: rotated.previous_secret_expires_at } })]);
  });

  it('the old secret is erased once its 24 hours are over', async () => {
    const { kit, accountId, handler } = setup();
    await handler.execute(new RotateWebhookSecretCommand(accountId, 'k', SYSTEM_ACTOR, 'sub'));
    const erase = new EraseExpiredWebhookSecretsHandler(kit.subscriptions, kit.clock);
    expect(await erase.execute()).toBe(0);
    kit.clock.advance(24 * 3_600_000);
    expect(await erase.execute()).toBe(1);
    expect(kit.store.subscriptions[0]).toMatchObject({ previousSecretCiphertext: null, previousSecretExpiresAt: null });
  });

  it.each([
    ['another key of the account', 'same', 'k2'],
    ['another account', 'other', 'k'],
  ])('only the owning key rotates: %s gets 404 not_found and nothing changes', async (_, account, key) => {
    const { kit, accountId, handler } = setup();
    const error = await handler.execute(new RotateWebhookSecretCommand(account === 'same' ? accountId : kit.account(), key, SYSTEM_ACTOR, 'sub')).catch((e) => e);
    expect(error).toBeInstanceOf(WebhookSubscriptionNotFoundError);
    expect(kit.vault.decrypt(kit.store.subscriptions[0].secretCiphertext)).toBe('old');
    expect(kit.journal.entries).toEqual([]);
  });
});
