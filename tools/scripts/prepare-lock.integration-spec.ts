import { Client } from 'pg';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { withPrepareLock } from './migrate';

/**
 * The preparation lock of `npm start` / `npm run migrate` (withPrepareLock) on real PostgreSQL: two nodes
 * starting together with a migration pending must run one after the other, never deadlock. The holder's
 * migration builds an index CONCURRENTLY, which waits for every older snapshot to end; a waiter that
 * waited INSIDE a statement (`pg_advisory_xact_lock`) held such a snapshot, so each waited for the other.
 */
describe('preparation lock', () => {
  let services: TestServices;

  beforeAll(async () => {
    services = await createTestServices();
    const client = new Client({ connectionString: services.databaseUrl });
    await client.connect();
    await client.query('CREATE TABLE IF NOT EXISTS public.prepare_lock_probe (id int, label text)');
    await client.end();
  });
  afterAll(() => services.dispose());

  it('a second node waits for the first, whose CREATE INDEX CONCURRENTLY completes: no deadlock, one after the other', async () => {
    const order: string[] = [];
    let release!: () => void;
    const secondIsWaiting = new Promise<void>((resolve) => (release = resolve));

    const first = withPrepareLock(services.databaseUrl, async () => {
      order.push('first:start');
      await secondIsWaiting;
      const client = new Client({ connectionString: services.databaseUrl });
      await client.connect();
      try {
        await client.query('CREATE INDEX CONCURRENTLY IF NOT EXISTS prepare_lock_probe_label ON public.prepare_lock_probe (label)');
      } finally {
        await client.end();
      }
      order.push('first:end');
    });
    // The first holds the lock before the second asks for it.
    while (!order.includes('first:start')) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = withPrepareLock(services.databaseUrl, async () => {
      order.push('second');
    });
    // Let the second try (and be refused) a few times before the first builds its index.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(order).toEqual(['first:start']);
    release();

    await Promise.all([first, second]);
    expect(order).toEqual(['first:start', 'first:end', 'second']);
  }, 60_000);
});
