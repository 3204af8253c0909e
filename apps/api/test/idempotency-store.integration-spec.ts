import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { asAccountId, SystemClock } from '@leadflow/shared-kernel';
import { dataSourceOptions, IdempotencyStore, SecretCipher } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';

/**
 * Issue 12 (fault suite): PostgreSQL restarting between a write's commit and the key's update must not
 * leave the Idempotency-Key `processing`. The store retries `complete` and `release` in the background
 * for as long as the key's lease lasts.
 */
describe('IdempotencyStore while PostgreSQL is briefly unavailable', () => {
  let services: TestServices;
  let db: DataSource;
  const account = asAccountId(randomUUID());

  /** The real data source, except that its next `gate.failures` queries fail as a restarting server's would. */
  const gate = { failures: 0 };
  const flaky = () =>
    ({
      query: (...args: Parameters<DataSource['query']>) => {
        if (gate.failures > 0) {
          gate.failures -= 1;
          return Promise.reject(new Error('Connection terminated unexpectedly'));
        }
        return db.query(...args);
      },
    }) as unknown as DataSource;
  const row = async (key: string) =>
    ((await db.query(`SELECT state, response_status, response_body FROM platform.idempotency_keys WHERE account_id = $1 AND key = $2`, [account, key])) as {
      state: string;
      response_status: number | null;
      response_body: unknown;
    }[])[0];
  const waitFor = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 5000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    services = await createTestServices();
    db = new DataSource(dataSourceOptions(services.databaseUrl, [], []));
    await db.initialize();
  });

  afterAll(async () => {
    await db.destroy();
    await services.dispose();
  });

  it('a completion that failed is stored once PostgreSQL answers again, within the lease: no key left processing', async () => {
    const key = `k-${randomUUID()}`;
    const store = new IdempotencyStore(flaky(), new SystemClock(), services.config(), new SecretCipher(services.config()));
    expect(await store.claim(account, key, 'fingerprint')).toEqual({ outcome: 'claimed' });
    gate.failures = 2;

    await expect(store.complete(account, key, 201, { data: { id: 'c-1' } })).rejects.toThrow('Connection terminated');

    await waitFor(async () => (await row(key)).state === 'completed');
    expect(await row(key)).toMatchObject({ state: 'completed', response_status: 201 });
    expect(new SecretCipher(services.config()).decrypt((await row(key)).response_body as string)).toBe(JSON.stringify({ data: { id: 'c-1' } }));
    expect(await store.claim(account, key, 'fingerprint')).toMatchObject({ outcome: 'replay', status: 201, body: { data: { id: 'c-1' } } });
  });

  it('a release that failed is retried too: the key becomes usable again', async () => {
    const key = `k-${randomUUID()}`;
    const store = new IdempotencyStore(flaky(), new SystemClock(), services.config(), new SecretCipher(services.config()));
    await store.claim(account, key, 'fingerprint');
    gate.failures = 1;

    await expect(store.release(account, key)).rejects.toThrow('Connection terminated');

    await waitFor(async () => (await row(key)) === undefined);
    expect(await store.claim(account, key, 'another fingerprint')).toEqual({ outcome: 'claimed' });
  });

  it('a late completion never overwrites a key that is no longer processing', async () => {
    const key = `k-${randomUUID()}`;
    const store = new IdempotencyStore(db, new SystemClock(), services.config(), new SecretCipher(services.config()));
    await store.claim(account, key, 'fingerprint');
    await store.complete(account, key, 201, { first: true });

    await store.complete(account, key, 200, { second: true });

    expect(await row(key)).toMatchObject({ state: 'completed', response_status: 201 });
  });

  it('a replay whose stored response no longer decrypts (SECRET_ENCRYPTION_KEY changed) is a 409 replay_unavailable conflict, never a 500 or a second run', async () => {
    const key = `k-${randomUUID()}`;
    const before = new IdempotencyStore(db, new SystemClock(), services.config(), new SecretCipher(services.config()));
    expect(await before.claim(account, key, 'fingerprint')).toEqual({ outcome: 'claimed' });
    await before.complete(account, key, 201, { data: { secret: 'a'.repeat(64) } });
    const rotated = services.config({ SECRET_ENCRYPTION_KEY: 'ab'.repeat(32) });
    const after = new IdempotencyStore(db, new SystemClock(), rotated, new SecretCipher(rotated));

    expect(await after.claim(account, key, 'fingerprint')).toEqual({ outcome: 'conflict', reason: 'replay_unavailable' });
    expect(await row(key)).toMatchObject({ state: 'completed', response_status: 201 });
  });
});
