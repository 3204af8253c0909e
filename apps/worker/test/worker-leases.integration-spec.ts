import { DataSource } from 'typeorm';
import { currentHost, dataSourceOptions, WorkerIdentity, WorkerLeases } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';

/**
 * docs/adr/0004: worker liveness in `platform.workers` and the takeover of a dead worker's leases
 * (libs/shared/platform/src/worker), against real PostgreSQL.
 */
describe('WorkerLeases', () => {
  let services: TestServices;
  let db: DataSource;
  const registered: string[] = [];

  const leases = (identity: WorkerIdentity, settings: Partial<{ heartbeatTimeoutMs: number }> = {}) => {
    registered.push(identity.id);
    return new WorkerLeases(db, identity, services.config(), { autoStart: false, heartbeatIntervalMs: 1000, heartbeatTimeoutMs: 10_000, ...settings });
  };
  const row = async (id: string) => ((await db.query(`SELECT id FROM platform.workers WHERE id = $1`, [id])) as { id: string }[])[0];
  const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

  beforeAll(async () => {
    services = await createTestServices();
    db = new DataSource(dataSourceOptions(services.databaseUrl, [], []));
    await db.initialize();
  });

  afterAll(async () => {
    await db.query(`DELETE FROM platform.workers WHERE id = ANY($1::uuid[])`, [registered]);
    await db.destroy();
    await services.dispose();
  });

  it('a worker of this machine whose pid is gone is dead at once: its leases are taken over and its row deleted', async () => {
    // A pid above the kernel's maximum never exists.
    const dead = new WorkerIdentity(undefined, currentHost(), 2 ** 22 + 1);
    await leases(dead).heartbeat();
    const survivor = leases(new WorkerIdentity());
    const taken: string[][] = [];
    survivor.onTakeover('test leases', async (ids) => {
      taken.push(ids);
      return ids.length;
    });

    const found = await survivor.heartbeat();
    await settle();

    expect(found).toContain(dead.id);
    expect(taken.flat()).toContain(dead.id);
    expect(await row(dead.id)).toBeUndefined();
    expect(await row(survivor.identity.id)).toBeDefined();
  });

  it('a live worker of this machine, or one of another machine still beating, is left alone; a silent one of another machine is dead after the timeout', async () => {
    const live = leases(new WorkerIdentity(undefined, currentHost(), process.ppid));
    const remote = new WorkerIdentity(undefined, 'elsewhere/pid:[1]', 1);
    await live.heartbeat();
    await leases(remote).heartbeat();
    const survivor = leases(new WorkerIdentity(), { heartbeatTimeoutMs: 300 });
    const taken: string[] = [];
    survivor.onTakeover('test leases', async (ids) => {
      taken.push(...ids);
      return ids.length;
    });

    expect(await survivor.heartbeat()).not.toContain(remote.id); // not silent yet (and this worker just started)
    await new Promise((resolve) => setTimeout(resolve, 400));
    await live.heartbeat();
    const found = await survivor.heartbeat();
    await settle();

    expect(found).toContain(remote.id);
    expect(found).not.toContain(live.identity.id);
    expect(taken).toContain(remote.id);
    expect(await row(remote.id)).toBeUndefined();
  });

  it('a failing takeover keeps the dead worker listed, so the next heartbeat tries again', async () => {
    const dead = new WorkerIdentity(undefined, currentHost(), 2 ** 22 + 2);
    await leases(dead).heartbeat();
    const survivor = leases(new WorkerIdentity());
    let calls = 0;
    survivor.onTakeover('test leases', async () => {
      calls += 1;
      if (calls === 1) throw new Error('Redis down');
      return 0;
    });

    await survivor.heartbeat();
    await settle();
    expect(await row(dead.id)).toBeDefined();
    await survivor.heartbeat();
    await settle();
    expect(calls).toBe(2);
    expect(await row(dead.id)).toBeUndefined();
  });
});
