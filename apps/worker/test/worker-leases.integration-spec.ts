import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { currentHost, dataSourceOptions, WorkerIdentity, WorkerLeases } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { WebhookDeliverySweeper } from '@leadflow/webhooks-adapters';
import { createWorker } from '../src/bootstrap';

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

/**
 * The same wiring as `npm start` builds it (Nest DI, not hand-made instances): the webhook attempts' leases
 * must name the worker, and the sweeper must register the takeover. Both were injected as `X | null`, which
 * TypeScript's decorator metadata records as `Object`: Nest injected nothing, every lease named no holder
 * and a dead worker's attempts waited out their 15 s lease (seen in the fault suite: 32 leases, none
 * naming the killed worker).
 */
describe('WorkerLeases in the assembled worker', () => {
  let services: TestServices;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    services = await createTestServices();
    worker = await createWorker(services.config());
  });

  afterAll(async () => {
    await worker?.close();
    await services?.dispose();
  });

  /** The instance of the provider whose class is named `name`, wherever Nest registered it. */
  const instanceNamed = (name: string): Record<string, unknown> | undefined => {
    const container = (worker as unknown as { container: { getModules(): Map<string, { providers: Map<unknown, { instance: unknown }> }> } }).container;
    for (const module of container.getModules().values()) {
      for (const wrapper of module.providers.values()) {
        const instance = wrapper.instance as Record<string, unknown> | null;
        if (instance?.constructor?.name === name) return instance;
      }
    }
    return undefined;
  };

  it("the webhook delivery repository names the worker's identity as the holder of its leases", () => {
    expect(instanceNamed('TypeOrmWebhookDeliveryRepository')?.worker).toBe(worker.get(WorkerIdentity));
  });

  it("the webhook sweeper has the worker's leases (the takeover of a dead worker's attempts is registered)", () => {
    expect((worker.get(WebhookDeliverySweeper) as unknown as Record<string, unknown>).leases).toBe(worker.get(WorkerLeases));
  });
});
