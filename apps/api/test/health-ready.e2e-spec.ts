import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { FixedClock } from '@leadflow/shared-kernel';
import { RedisConnection } from '@leadflow/shared-platform';
import { TestApi } from './support/test-api';

/**
 * `GET /health/ready` (issue 14, item 7: @nestjs/terminus indicators): readiness (PostgreSQL and Redis, 503 when
 * one is down) plus the outbox backlog (unrelayed `platform.outbox` rows and the age of the oldest, by the
 * injected clock), always with the state of each check. `GET /health` keeps the operator contract's shape
 * (health-probes.e2e-spec.ts); the backlog is reported, never a reason for 503.
 */
describe('Health: /health/ready reports the outbox backlog', () => {
  let api: TestApi;
  const clock = new FixedClock(new Date('2026-11-20T12:00:00.000Z'));
  const accountId = randomUUID();

  const insertOutbox = (secondsAgo: number, relayed: boolean) =>
    api.app.get(DataSource).query(
      `INSERT INTO platform.outbox (id, account_id, type, payload, actor, occurred_at, relayed_at) VALUES ($1, $2, 'contact_created', '{}', '{"type":"system"}', $3, $4)`,
      [randomUUID(), accountId, new Date(clock.now().getTime() - secondsAgo * 1000), relayed ? clock.now() : null],
    );

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
  });

  afterAll(async () => {
    await api.app.close().catch(() => undefined);
    await api.services.dispose();
  });

  it('with nothing unrelayed: 200, every check ok, backlog 0 and oldest_age_seconds 0', async () => {
    await api.app.get(DataSource).query(`UPDATE platform.outbox SET relayed_at = $1 WHERE relayed_at IS NULL`, [clock.now()]);
    const response = await api.request({ path: '/health/ready' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok', quota_store: 'ok', outbox: 'ok' }, outbox: { backlog: 0, oldest_age_seconds: 0 } });
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('counts the unrelayed rows only and ages the oldest of them by the clock (relayed rows, however old, are left out)', async () => {
    await insertOutbox(600, true);
    await insertOutbox(90, false);
    await insertOutbox(30, false);
    await insertOutbox(0, false);
    const response = await api.request({ path: '/health/ready' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok', quota_store: 'ok', outbox: 'ok' }, outbox: { backlog: 3, oldest_age_seconds: 90 } });
    clock.advance(2_500);
    expect((await api.request({ path: '/health/ready' })).body.outbox).toEqual({ backlog: 3, oldest_age_seconds: 92.5 });
    // The contract's readiness answer does not change with a backlog.
    expect((await api.request({ path: '/health' })).body).toEqual({ status: 'ok' });
  });

  it('with Redis gone: 503 unavailable, redis down, the backlog still reported; /health keeps the contract shape', async () => {
    api.app.get(RedisConnection).client.disconnect();
    const response = await api.request({ path: '/health/ready' });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ status: 'unavailable', checks: { postgres: 'ok', redis: 'down', quota_store: 'down', outbox: 'ok' }, outbox: { backlog: 3, oldest_age_seconds: 92.5 } });
    const readiness = await api.request({ path: '/health' });
    expect(readiness.status).toBe(503);
    expect(readiness.body).toEqual({ status: 'unavailable', checks: { postgres: 'ok', redis: 'down' } });
  });

  it('with PostgreSQL gone as well: postgres and outbox down, outbox null; /health/live still 200', async () => {
    await api.app.get(DataSource).destroy();
    const response = await api.request({ path: '/health/ready' });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ status: 'unavailable', checks: { postgres: 'down', redis: 'down', quota_store: 'down', outbox: 'down' }, outbox: null });
    expect((await api.request({ path: '/health' })).body).toEqual({ status: 'unavailable', checks: { postgres: 'down', redis: 'down' } });
    expect((await api.request({ path: '/health/live' })).status).toBe(200);
  });
});
