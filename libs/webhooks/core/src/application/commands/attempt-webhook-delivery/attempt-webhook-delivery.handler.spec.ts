import { createHmac } from 'node:crypto';
import { newId, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { storedBody } from '../../../domain/webhook-payload';
import { webhooksTestKit } from '../../../testing/webhooks-test-kit';
import { AttemptWebhookDeliveryCommand } from './attempt-webhook-delivery.command';
import { AttemptWebhookDeliveryHandler } from './attempt-webhook-delivery.handler';

describe('AttemptWebhookDeliveryHandler', () => {
  const setup = () => {
    const kit = webhooksTestKit();
    const accountId = kit.account();
    const secret = 'a'.repeat(64);
    kit.store.subscriptions.push({ id: 'sub', accountId, apiKeyId: 'k', url: 'https://h.example.com/in', selection: { all: true }, secretCiphertext: kit.vault.encrypt(secret), createdAt: kit.clock.now() });
    const contactId = newId();
    kit.systems.systems.set(contactId, { id: 'sys', name: 'Laval' });
    const id = newId();
    kit.store.deliveries.push({ id, accountId, subscriptionId: 'sub', eventId: newId(), event: 'contact_created', contactId, body: storedBody('contact_created', kit.clock.now(), { contact_id: contactId }, SYSTEM_ACTOR), status: 'pending', attempt: 0, responseStatus: null, lastError: null, nextAttemptAt: kit.clock.now(), lockedUntil: null, jobId: null });
    const handler = new AttemptWebhookDeliveryHandler(kit.deliveries, kit.subscriptions, kit.unitOfWork, kit.journal, kit.sender, kit.vault, kit.systems, kit.settings, kit.clock);
    return { kit, handler, accountId, id, secret, run: () => handler.execute(new AttemptWebhookDeliveryCommand(accountId, id)) };
  };

  it('a 2xx answer: signed POST (X-Service-Signature over "<t>.<body>"), data.system resolved, delivery succeeded, attempt recorded', async () => {
    const { kit, id, secret, run } = setup();
    expect(await run()).toMatchObject({ result: 'succeeded', attempt: 1, responseStatus: 200, retryDelayMs: null });
    const [post] = kit.sender.posts;
    const t = Math.floor(kit.clock.now().getTime() / 1000);
    expect(post.headers).toMatchObject({ 'x-service-event': 'contact_created', 'x-service-delivery': id, 'x-service-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${post.body}`).digest('hex')}` });
    expect(JSON.parse(post.body)).toMatchObject({ id, event: 'contact_created', data: { system: { id: 'sys', name: 'Laval' } } });
    expect(kit.store.deliveries[0]).toMatchObject({ status: 'succeeded', attempt: 1, lockedUntil: null });
    expect(kit.store.attempts).toHaveLength(1);
  });

  it('a failed answer: retrying with the schedule\'s wait (base × 2^(n−1) ±20 %) as next_attempt_at and as the retry delay handed to the queue', async () => {
    const { kit, run } = setup();
    kit.sender.answer({ status: 503 });
    const outcome = await run();
    expect(outcome).toMatchObject({ result: 'retrying', attempt: 1, responseStatus: 503, error: 'HTTP 503' });
    const delay = (outcome as { retryDelayMs: number }).retryDelayMs;
    expect(delay).toBeGreaterThanOrEqual(800);
    expect(delay).toBeLessThanOrEqual(1200);
    expect(kit.store.deliveries[0].nextAttemptAt).toEqual(new Date(kit.clock.now().getTime() + delay));
  });

  it('a 3xx is a failed attempt (redirects are not followed)', async () => {
    const { kit, run } = setup();
    kit.sender.answer({ status: 301 });
    expect(await run()).toMatchObject({ result: 'retrying', error: 'HTTP 301' });
  });

  it('the 12th failed attempt leaves the delivery failed, with no next attempt', async () => {
    const { kit, run } = setup();
    Object.assign(kit.store.deliveries[0], { status: 'retrying', attempt: 11 });
    kit.sender.answer({ status: 500 });
    expect(await run()).toMatchObject({ result: 'failed', attempt: 12, nextAttemptAt: null, retryDelayMs: null });
  });

  it('a refused target (SSRF guard at delivery) fails the delivery at once', async () => {
    const { kit, run } = setup();
    kit.sender.answer({ status: null, error: 'non_public_target: no', refused: true });
    expect(await run()).toMatchObject({ result: 'failed', error: 'non_public_target: no' });
  });

  it('a deleted subscription fails the delivery without any POST', async () => {
    const { kit, run } = setup();
    kit.store.subscriptions = [];
    expect(await run()).toMatchObject({ result: 'failed', error: 'subscription_deleted' });
    expect(kit.sender.posts).toEqual([]);
  });

  it('skips (no POST) a delivery leased by a live attempt, not yet due, settled or missing', async () => {
    const { kit, run, handler, accountId } = setup();
    kit.store.deliveries[0].lockedUntil = new Date(kit.clock.now().getTime() + 5000);
    expect(await run()).toEqual({ result: 'skipped', reason: 'busy' });
    Object.assign(kit.store.deliveries[0], { lockedUntil: null, nextAttemptAt: new Date(kit.clock.now().getTime() + 60_000) });
    expect(await run()).toEqual({ result: 'skipped', reason: 'not_due' });
    Object.assign(kit.store.deliveries[0], { status: 'succeeded' });
    expect(await run()).toEqual({ result: 'skipped', reason: 'settled' });
    expect(await handler.execute(new AttemptWebhookDeliveryCommand(accountId, newId()))).toEqual({ result: 'skipped', reason: 'missing' });
    expect(kit.sender.posts).toEqual([]);
  });
});

describe('AttemptWebhookDeliveryHandler, Standard Webhooks and the receiver\'s answers (issue 15)', () => {
  const setup = () => {
    const kit = webhooksTestKit();
    const accountId = kit.account();
    const secret = 'b'.repeat(64);
    kit.store.subscriptions.push({ id: 'sub', accountId, apiKeyId: 'k', url: 'https://h.example.com/in', selection: { all: true }, secretCiphertext: kit.vault.encrypt(secret), createdAt: kit.clock.now() });
    const id = newId();
    kit.store.deliveries.push({ id, accountId, subscriptionId: 'sub', eventId: newId(), event: 'lead_created', contactId: null, body: storedBody('lead_created', kit.clock.now(), {}, SYSTEM_ACTOR), status: 'pending', attempt: 0, responseStatus: null, lastError: null, nextAttemptAt: kit.clock.now(), lockedUntil: null, jobId: null });
    const handler = new AttemptWebhookDeliveryHandler(kit.deliveries, kit.subscriptions, kit.unitOfWork, kit.journal, kit.sender, kit.vault, kit.systems, kit.settings, kit.clock);
    return { kit, accountId, id, secret, run: () => handler.execute(new AttemptWebhookDeliveryCommand(accountId, id)) };
  };
  const standard = (secret: string, id: string, t: number, body: string) => `v1,${createHmac('sha256', secret).update(`${id}.${t}.${body}`).digest('base64')}`;

  it('every delivery carries webhook-id (the delivery id), webhook-timestamp (unix seconds) and webhook-signature v1,<base64 HMAC of "{id}.{timestamp}.{body}">', async () => {
    const { kit, id, secret, run } = setup();
    await run();
    const [post] = kit.sender.posts;
    const t = Math.floor(kit.clock.now().getTime() / 1000);
    expect(post.headers).toMatchObject({ 'webhook-id': id, 'webhook-timestamp': String(t), 'webhook-signature': standard(secret, id, t, post.body) });
  });

  it('during a rotation both secrets sign: webhook-signature lists both (new first, space-separated), X-Service-Signature both v1; once the 24 h passed, only the new one', async () => {
    const { kit, id, secret, run } = setup();
    const next = 'c'.repeat(64);
    Object.assign(kit.store.subscriptions[0], { secretCiphertext: kit.vault.encrypt(next), previousSecretCiphertext: kit.vault.encrypt(secret), previousSecretExpiresAt: new Date(kit.clock.now().getTime() + 3_600_000) });
    kit.sender.answer({ status: 500 });
    await run();
    const [first] = kit.sender.posts;
    const t = Math.floor(kit.clock.now().getTime() / 1000);
    expect(first.headers['webhook-signature']).toBe(`${standard(next, id, t, first.body)} ${standard(secret, id, t, first.body)}`);
    expect(first.headers['x-service-signature'].split(',')).toHaveLength(3);

    kit.clock.advance(2 * 3_600_000);
    await run();
    const second = kit.sender.posts[1];
    const t2 = Math.floor(kit.clock.now().getTime() / 1000);
    expect(second.headers['webhook-signature']).toBe(standard(next, id, t2, second.body));
    expect(second.headers['webhook-id']).toBe(id);
  });

  it('410 Gone disables the subscription (disabled_reason endpoint_gone), fails its waiting deliveries and journals webhook_disabled', async () => {
    const { kit, accountId, run } = setup();
    kit.store.deliveries.push({ ...kit.store.deliveries[0], id: 'other', eventId: 'e2' });
    kit.sender.answer({ status: 410 });
    expect(await run()).toMatchObject({ result: 'failed', error: 'HTTP 410', nextAttemptAt: null });
    expect(kit.store.subscriptions[0]).toMatchObject({ disabledReason: 'endpoint_gone' });
    expect(kit.store.deliveries.find((d) => d.id === 'other')).toMatchObject({ status: 'failed', lastError: 'subscription_disabled' });
    expect(kit.journal.entries).toEqual([expect.objectContaining({ accountId, type: 'webhook_disabled', data: expect.objectContaining({ subscription_id: 'sub', disabled_reason: 'endpoint_gone' }) })]);
  });

  it.each([429, 502, 503, 504])('%s honours Retry-After (seconds), capped at one hour', async (status) => {
    const { kit, run } = setup();
    kit.sender.answer({ status, retryAfterMs: 7000 });
    expect(await run()).toMatchObject({ result: 'retrying', retryDelayMs: 7000 });
    kit.clock.advance(7000);
    kit.sender.answer({ status, retryAfterMs: 86_400_000 });
    expect(await run()).toMatchObject({ result: 'retrying', retryDelayMs: 3_600_000 });
  });

  it('Retry-After on another status (500) is ignored: the schedule\'s wait', async () => {
    const { kit, run } = setup();
    kit.sender.answer({ status: 500, retryAfterMs: 7000 });
    const outcome = (await run()) as { retryDelayMs: number };
    expect(outcome.retryDelayMs).toBeLessThanOrEqual(1200);
  });

  it('a subscription failing every attempt for 5 days is disabled (failing_for_5_days) at its next failure; a success in between resets the streak', async () => {
    const { kit, run } = setup();
    kit.sender.answer({ status: 500 });
    await run();
    expect(kit.store.subscriptions[0].failingSince).toEqual(kit.clock.now());
    kit.clock.advance(5 * 24 * 3_600_000);
    kit.sender.answer({ status: 500 });
    expect(await run()).toMatchObject({ result: 'failed' });
    expect(kit.store.subscriptions[0]).toMatchObject({ disabledReason: 'failing_for_5_days' });
    expect(kit.journal.entries.map((e) => e.type)).toEqual(['webhook_disabled']);
  });

  it('a success clears the failing streak', async () => {
    const { kit, run } = setup();
    kit.sender.answer({ status: 500 });
    await run();
    kit.clock.advance(2000);
    await run();
    expect(kit.store.subscriptions[0].failingSince).toBeNull();
  });

  it('a disabled subscription\'s delivery is failed without any POST (subscription_disabled)', async () => {
    const { kit, run } = setup();
    kit.store.subscriptions[0].disabledReason = 'endpoint_gone';
    expect(await run()).toMatchObject({ result: 'failed', error: 'subscription_disabled' });
    expect(kit.sender.posts).toEqual([]);
  });
});
