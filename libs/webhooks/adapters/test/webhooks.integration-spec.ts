import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { getQueueToken } from '@nestjs/bullmq';
import { BullModule } from '@nestjs/bullmq';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { AccountId, asAccountId, newId, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { PlatformModule, QueueModule } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import {
  ClaimedDelivery,
  FanOutWebhookEventCommand,
  RescheduleLostDeliveriesCommand,
  storedBody,
  WebhookDeliveryRepository,
  WebhookSecretVault,
  WebhookSubscriptionRepository,
} from '@leadflow/webhooks-core';
import { BullMqWebhookDeliveryScheduler } from '../src/infrastructure/queue/bullmq-webhook-delivery.scheduler';
import { DeliverWebhookProcessor } from '../src/interface/jobs/deliver-webhook.processor';
import { WEBHOOK_DELIVERY_QUEUE } from '../src/interface/jobs/webhook-delivery.job';
import { WebhooksCoreModule } from '../src/webhooks-core.module';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows are asserted field by field */

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The webhooks adapters on real PostgreSQL and Redis: the repositories (fan-out rows, the claim's lease,
 * the record's lease check, tenant isolation) and the delivery job (BullMQ `attempts` with the retry
 * schedule as the custom backoff, the sweeper's rescue of a lost job), against a local HTTP receiver.
 */
describe('Webhooks adapters (PostgreSQL, Redis, BullMQ)', () => {
  let services: TestServices;
  let context: INestApplicationContext;
  let db: DataSource;
  let commands: CommandBus;
  let subscriptions: WebhookSubscriptionRepository;
  let deliveries: WebhookDeliveryRepository;
  let vault: WebhookSecretVault;
  let queue: Queue;
  let server: Server;
  const answers: number[] = [];
  const received: { path: string; headers: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    services = await createTestServices();
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({ path: req.url ?? '/', headers: req.headers });
        res.writeHead(answers.shift() ?? 200).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const config = services.config({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_SWEEP_GRACE_MS: '0', WEBHOOK_LEASE_MS: '2000' });
    @Module({
      imports: [
        PlatformModule.forRoot({ config }),
        QueueModule.forRoot(),
        WebhooksCoreModule.register({ scheduler: BullMqWebhookDeliveryScheduler, imports: [BullModule.registerQueue({ name: WEBHOOK_DELIVERY_QUEUE })] }),
      ],
      providers: [DeliverWebhookProcessor],
    })
    class WebhooksWorker {}
    context = await NestFactory.createApplicationContext(WebhooksWorker, { logger: false, abortOnError: false });
    await context.init();
    db = context.get(DataSource);
    commands = context.get(CommandBus);
    subscriptions = context.get(WebhookSubscriptionRepository, { strict: false });
    deliveries = context.get(WebhookDeliveryRepository, { strict: false });
    vault = context.get(WebhookSecretVault, { strict: false });
    queue = context.get<Queue>(getQueueToken(WEBHOOK_DELIVERY_QUEUE), { strict: false });
  }, 30_000);

  afterAll(async () => {
    await context?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await services?.dispose();
  });

  const url = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  const subscribe = async (accountId: AccountId, path: string, apiKeyId = newId()) => {
    const id = newId();
    await subscriptions.insert({ id, accountId, apiKeyId, url: url(path), selection: { all: true }, secretCiphertext: vault.encrypt('s'.repeat(64)), createdAt: new Date() });
    return { id, apiKeyId };
  };
  const event = (accountId: AccountId, type = 'lead_created') => ({ id: newId(), type, accountId, occurredAt: new Date(), payload: { note: 'x' }, actor: SYSTEM_ACTOR });
  const rowsOf = (accountId: AccountId) => db.query(`SELECT * FROM webhooks.deliveries WHERE account_id = $1 ORDER BY created_at, id`, [accountId]);

  it('createForEvent: one pending delivery per subscription and one sample, in one statement; a replay creates nothing and answers the same waiting ids', async () => {
    const accountId = asAccountId(newId());
    const a = await subscribe(accountId, '/unused-a');
    const b = await subscribe(accountId, '/unused-b');
    const input = {
      accountId,
      eventId: newId(),
      event: 'lead_created',
      contactId: null,
      body: storedBody('lead_created', new Date(), {}, SYSTEM_ACTOR),
      occurredAt: new Date(),
      now: new Date(),
      subscriptionIds: [a, b].map((s) => ({ deliveryId: newId(), subscriptionId: s.id })),
    };
    const first = await deliveries.createForEvent(input);
    const replay = await deliveries.createForEvent({ ...input, subscriptionIds: [a, b].map((s) => ({ deliveryId: newId(), subscriptionId: s.id })) });

    expect(first.map((d) => d.id).sort()).toEqual(input.subscriptionIds.map((s) => s.deliveryId).sort());
    expect(replay.map((d) => d.id).sort()).toEqual(first.map((d) => d.id).sort());
    expect(await rowsOf(accountId)).toHaveLength(2);
    expect(await db.query(`SELECT count(*)::int AS n FROM webhooks.event_samples WHERE event_id = $1`, [input.eventId])).toEqual([{ n: 1 }]);
  });

  it('claim: one lease at a time (a concurrent claim is busy), the subscription read in the same statement; a stale lease records its attempt row but not the state', async () => {
    const accountId = asAccountId(newId());
    const sub = await subscribe(accountId, '/unused');
    const [delivery] = await deliveries.createForEvent({
      accountId, eventId: newId(), event: 'lead_created', contactId: null, body: storedBody('lead_created', new Date(), {}, SYSTEM_ACTOR),
      occurredAt: new Date(), now: new Date(Date.now() - 1000), subscriptionIds: [{ deliveryId: newId(), subscriptionId: sub.id }],
    });
    const now = new Date();
    const [one, two] = await Promise.all([deliveries.claim(accountId, delivery.id, new Date(now.getTime() + 5000), now), deliveries.claim(accountId, delivery.id, new Date(now.getTime() + 5000), now)]);
    const claimed = (typeof one === 'string' ? two : one) as ClaimedDelivery;
    expect([one, two].filter((c) => c === 'busy')).toHaveLength(1);
    expect(claimed.subscription).toEqual({ url: url('/unused'), secretCiphertext: expect.stringMatching(/^v1\./), previousSecretCiphertext: null, disabledReason: null, failingSince: null });
    expect(await deliveries.claim(asAccountId(newId()), delivery.id, new Date(now.getTime() + 5000), now)).toBe('missing'); // another account's id

    const decision = { status: 'succeeded' as const, error: null, nextAttemptAt: null, retryDelayMs: null };
    const answer = { status: 200, error: null, refused: false, durationMs: 5 };
    await deliveries.recordAttempt({ ...claimed, lockedUntil: new Date(0) }, { attempt: 1, answer, decision, at: now });
    expect((await rowsOf(accountId))[0]).toMatchObject({ status: 'pending', attempt: 0 });
    await deliveries.recordAttempt(claimed, { attempt: 1, answer, decision, at: now });
    expect((await rowsOf(accountId))[0]).toMatchObject({ status: 'succeeded', attempt: 1, locked_until: null });
    expect(await db.query(`SELECT count(*)::int AS n FROM webhooks.delivery_attempts WHERE delivery_id = $1`, [delivery.id])).toEqual([{ n: 2 }]);
  });

  it("the event's body is stored once, in its sample: a delivery row holds none and the claim answers the sample's body", async () => {
    const accountId = asAccountId(newId());
    const [a, b] = [await subscribe(accountId, '/unused-a'), await subscribe(accountId, '/unused-b')];
    const body = storedBody('lead_created', new Date(), { contact: { first_name: 'Élise' } }, SYSTEM_ACTOR);
    const eventId = newId();
    const created = await deliveries.createForEvent({
      accountId, eventId, event: 'lead_created', contactId: null, body, occurredAt: new Date(), now: new Date(Date.now() - 1000),
      subscriptionIds: [a, b].map((s) => ({ deliveryId: newId(), subscriptionId: s.id })),
    });

    expect((await rowsOf(accountId)).map((row: any) => row.body)).toEqual([null, null]);
    const [sample] = await db.query(`SELECT body FROM webhooks.event_samples WHERE event_id = $1`, [eventId]);
    expect(sample.body).toEqual(JSON.parse(JSON.stringify(body)));
    const now = new Date();
    const claimed = (await deliveries.claim(accountId, created[0]!.id, new Date(now.getTime() + 5000), now)) as ClaimedDelivery;
    expect(claimed.body).toEqual(sample.body);
  });

  it('a delivery written with its own body (before migration 1799100000000) is claimed with that body; one whose body is nowhere is missing and stays unleased', async () => {
    const accountId = asAccountId(newId());
    const sub = await subscribe(accountId, '/unused');
    const [own, orphan] = [newId(), newId()];
    for (const [id, body] of [[own, { type: 'lead_created', data: { legacy: true } }], [orphan, null]] as const) {
      await db.query(
        `INSERT INTO webhooks.deliveries (id, account_id, subscription_id, event_id, event, body, status, attempt, next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'lead_created', $5, 'pending', 0, now() - interval '1 second', now(), now())`,
        [id, accountId, sub.id, newId(), body],
      );
    }
    const now = new Date();

    expect(((await deliveries.claim(accountId, own, new Date(now.getTime() + 5000), now)) as ClaimedDelivery).body).toEqual({ type: 'lead_created', data: { legacy: true } });
    expect(await deliveries.claim(accountId, orphan, new Date(now.getTime() + 5000), now)).toBe('missing');
    expect(await db.query(`SELECT locked_until FROM webhooks.deliveries WHERE id = $1`, [orphan])).toEqual([{ locked_until: null }]);
  });

  it('tenant isolation: another account or another key neither lists nor deletes a subscription', async () => {
    const accountId = asAccountId(newId());
    const sub = await subscribe(accountId, '/unused');
    expect(await subscriptions.deleteOwned(asAccountId(newId()), sub.apiKeyId, sub.id)).toBeNull();
    expect(await subscriptions.deleteOwned(accountId, newId(), sub.id)).toBeNull();
    expect(await subscriptions.listByKey(accountId, newId())).toEqual([]);
    expect((await subscriptions.listByKey(accountId, sub.apiKeyId)).map((s) => s.id)).toEqual([sub.id]);
  });

  it('the delivery job retries through BullMQ attempts and the custom backoff: 500 then 200 gives two attempts of ONE job (id = delivery id)', async () => {
    const accountId = asAccountId(newId());
    await subscribe(accountId, '/flaky');
    answers.push(500);
    await commands.execute(new FanOutWebhookEventCommand(event(accountId)));
    const [row] = await waitFor(() => rowsOf(accountId), (rows) => rows[0]?.status === 'succeeded', 'a succeeded delivery');

    expect(row).toMatchObject({ attempt: 2, response_status: 200, next_attempt_at: null });
    const job = await queue.getJob(row.id);
    expect(job?.attemptsMade).toBe(2);
    expect(job?.opts).toMatchObject({ attempts: 12, backoff: { type: 'webhook-schedule' } });
    const attempts = await db.query(`SELECT attempt, status, response_status, next_attempt_at FROM webhooks.delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [row.id]);
    expect(attempts.map((a: any) => [a.attempt, a.status, a.response_status])).toEqual([
      [1, 'retrying', 500],
      [2, 'succeeded', 200],
    ]);
    expect(received.filter((r) => r.path === '/flaky').map((r) => r.headers['x-service-delivery'])).toEqual([row.id, row.id]);
  });

  it('the sweeper queues again a delivery whose job was lost, and the new job delivers it', async () => {
    const accountId = asAccountId(newId());
    const sub = await subscribe(accountId, '/lost');
    const id = newId();
    await db.query(
      `INSERT INTO webhooks.deliveries (id, account_id, subscription_id, event_id, event, body, status, attempt, response_status, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'lead_created', $5, 'retrying', 1, 502, now() - interval '1 minute', now(), now())`,
      [id, accountId, sub.id, newId(), storedBody('lead_created', new Date(), {}, SYSTEM_ACTOR)],
    );
    expect(await commands.execute(new RescheduleLostDeliveriesCommand())).toContain(id);
    const [row] = await waitFor(() => rowsOf(accountId), (rows) => rows[0]?.status === 'succeeded', 'the rescued delivery');
    expect(row).toMatchObject({ attempt: 2, job_id: expect.stringMatching(new RegExp(`^${id}\\.m\\d+$`)) });
    expect((await queue.getJob(row.job_id))?.opts.attempts).toBe(11);
  });
});
