import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { FixedClock } from '@leadflow/shared-kernel';
import { createApiApp } from '../src/bootstrap';
import { TestApi } from './support/test-api';

/**
 * Issue 11, item 1: resolved keys are cached in each api process, and a revocation or a change of the
 * account's features or terms reaches every process within 1 second (Redis pub/sub), while expiry is
 * checked against the clock on every request. "Second api process": a second api application with its
 * own DI container, cache and Redis connections, on the same database and Redis prefix.
 */
describe('authentication cache across api processes (issue 11 › Authentication without PostgreSQL on the hot path)', () => {
  const clock = new FixedClock(new Date('2026-11-24T15:00:00.000Z'));
  let api: TestApi;
  let second: NestFastifyApplication;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    second = await createApiApp(api.services.config(), clock);
  });
  afterAll(async () => {
    await second.close();
    await api.close();
  });

  const me = (app: NestFastifyApplication, key: string) => app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${key}` } });

  /** Polls `probe` every 25 ms until it returns `status`; the elapsed milliseconds, or null after `withinMs`. */
  async function msUntil(probe: () => Promise<{ statusCode: number }>, status: number, withinMs: number): Promise<number | null> {
    const started = Date.now();
    while (Date.now() - started <= withinMs) {
      if ((await probe()).statusCode === status) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return null;
  }

  it('a key revoked through the operator API is refused by a second api process within 1 s (cache warm there)', async () => {
    const account = await api.provision();
    const key = account.api_keys.full;
    expect((await me(second, key.key)).statusCode).toBe(200);
    expect((await me(second, key.key)).statusCode).toBe(200); // from the second process's cache

    const revoked = await api.admin('POST', `/accounts/${account.account_id}/api-keys/${key.id}/revoke`);
    expect(revoked.status).toBe(200);
    const elapsed = await msUntil(() => me(second, key.key), 401, 1000);
    expect(elapsed).not.toBeNull();
    const refused = await me(second, key.key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'invalid_api_key', details: null });
  });

  it("the account's features changed through the operator API are applied by a second api process within 1 s", async () => {
    const account = await api.provision();
    const key = account.api_keys.full.key;
    const quotes = () => second.inject({ method: 'GET', url: '/v1/quotes', headers: { authorization: `Bearer ${key}` } });
    expect((await quotes()).statusCode).toBe(200);

    const patched = await api.admin('PATCH', `/accounts/${account.account_id}`, { features: ['public_api'] });
    expect(patched.status).toBe(200);
    expect(await msUntil(quotes, 403, 1000)).not.toBeNull();
    expect((await quotes()).json()).toMatchObject({ code: 'feature_not_available', details: { feature: 'quotes' } });
  });

  it('an expired key is refused at its expiry instant with the cache warm, and served until then', async () => {
    const expiresAt = new Date(clock.now().getTime() + 3_600_000);
    const account = await api.provision({ api_keys: [{ name: 'short', preset: 'full_integration', expires_at: expiresAt.toISOString() }] });
    const key = account.api_keys.short.key;
    expect((await me(second, key)).statusCode).toBe(200);

    clock.set(new Date(expiresAt.getTime() - 1));
    expect((await me(second, key)).statusCode).toBe(200);
    clock.set(expiresAt);
    const refused = await me(second, key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'invalid_api_key' });
    clock.set(new Date('2026-11-24T15:00:00.000Z'));
  });

  it('a cached key is resolved without reading PostgreSQL: one lookup for many requests', async () => {
    const account = await api.provision();
    const manager = second.get(DataSource).manager;
    const queries = jest.spyOn(manager, 'query');
    try {
      for (let i = 0; i < 5; i += 1) expect((await me(second, account.api_keys.full.key)).statusCode).toBe(200);
      const keyLookups = queries.mock.calls.filter(([sql]) => String(sql).includes('FROM accounts.api_key_prefixes p'));
      expect(keyLookups).toHaveLength(1);
    } finally {
      queries.mockRestore();
    }
  });

  it('an unknown secret with a known prefix is never answered from the cache', async () => {
    const account = await api.provision();
    const key = account.api_keys.full.key;
    expect((await me(second, key)).statusCode).toBe(200);
    const forged = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    const refused = await me(second, forged);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'invalid_api_key' });
  });
});
