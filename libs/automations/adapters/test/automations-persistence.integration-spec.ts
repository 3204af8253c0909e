import { getQueueToken } from '@nestjs/bullmq';
import { Test, TestingModule } from '@nestjs/testing';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { AccountId, asAccountId, decodeCursor, newId } from '@leadflow/shared-kernel';
import { PlatformModule, QueueModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import {
  AutomationCollaborators,
  AutomationRecordState,
  AutomationsReadModel,
  AutomationStore,
  StoredStep,
  StoredTrigger,
  SweepExecutionsCommand,
} from '@leadflow/automations-core';
import { CommandBus } from '@nestjs/cqrs';
import { AUTOMATION_EXECUTIONS_QUEUE, AutomationsJobsModule } from '../src';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows are asserted field by field */

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The automations adapters on real PostgreSQL, Redis and BullMQ, through AutomationsJobsModule (the
 * worker's module; the other contexts' buses replaced by a stub that knows no contact): the store's
 * tenant filters, the enrolment's idempotency on the source event, the lease (acquire / restart /
 * FOR UPDATE), the per-step marker, the stale scan, the sweeper's re-queue as an idempotent BullMQ job
 * run by the real processor, and the read model's keyset pages.
 */
describe('Automations adapters (PostgreSQL, Redis, BullMQ)', () => {
  let services: TestServices;
  let moduleRef: TestingModule;
  let db: DataSource;
  let store: AutomationStore;
  let reads: AutomationsReadModel;
  let transactions: TransactionHost;
  let commands: CommandBus;
  let queue: Queue;

  beforeAll(async () => {
    services = await createTestServices();
    const config = services.config({ AUTOMATION_SWEEP_INTERVAL_MS: '3600000', AUTOMATION_STALE_GRACE_MS: '1', AUTOMATION_LEASE_MS: '60000' });
    moduleRef = await Test.createTestingModule({ imports: [PlatformModule.forRoot({ config }), QueueModule.forRoot(), AutomationsJobsModule] })
      .overrideProvider(AutomationCollaborators)
      .useValue({ contact: async () => null })
      .setLogger({ log: () => undefined, error: () => undefined, warn: () => undefined, debug: () => undefined, verbose: () => undefined })
      .compile();
    await moduleRef.init();
    db = moduleRef.get(DataSource);
    store = moduleRef.get(AutomationStore);
    reads = moduleRef.get(AutomationsReadModel);
    transactions = moduleRef.get(TransactionHost);
    commands = moduleRef.get(CommandBus);
    queue = moduleRef.get(getQueueToken(AUTOMATION_EXECUTIONS_QUEUE));
  });
  afterAll(async () => {
    await moduleRef?.close();
    await services?.dispose();
  });

  const automation = async (accountId: AccountId, overrides: Partial<AutomationRecordState> = {}): Promise<AutomationRecordState> => {
    const at = new Date();
    const row: AutomationRecordState = {
      id: newId(),
      accountId,
      name: `Parcours ${newId().slice(-8)}`,
      isActive: true,
      isPublished: true,
      allowConcurrentRuns: false,
      trigger: { type: 'manual' } as StoredTrigger,
      steps: [{ type: 'wait', seconds: 3600 }],
      archivedAt: null,
      createdAt: at,
      updatedAt: at,
      ...overrides,
    };
    await transactions.run(() => store.insertAutomations([row]));
    return row;
  };

  const execution = async (auto: AutomationRecordState, overrides: { sourceEventId?: string | null; createdAt?: Date; steps?: StoredStep[] } = {}) => {
    const id = newId();
    const inserted = await store.insertExecution({
      id,
      accountId: auto.accountId,
      automationId: auto.id,
      contactId: newId(),
      triggerType: 'manual_api',
      eventData: { plan: 'pro' },
      eventFingerprint: 'fp',
      sourceEventId: overrides.sourceEventId ?? null,
      steps: overrides.steps ?? auto.steps,
      createdAt: overrides.createdAt ?? new Date(),
    });
    return { id, inserted };
  };

  const row = async (id: string): Promise<any> => (await db.query(`SELECT * FROM automations.executions WHERE id = $1`, [id]))[0];

  it("another account's automation, an archived one and an id that is not a UUID read as missing", async () => {
    const a = asAccountId(newId());
    const b = asAccountId(newId());
    const mine = await automation(a);
    const archived = await automation(a, { archivedAt: new Date() });
    expect((await store.findAutomation(a, mine.id))?.name).toBe(mine.name);
    expect(await store.findAutomation(b, mine.id)).toBeNull();
    expect(await store.findAutomation(a, archived.id)).toBeNull();
    expect(await store.findAutomation(a, 'not-a-uuid')).toBeNull();
  });

  it('a trigger starts only the active, published, non-archived automations of that account and type (custom_event by its exact name), in creation order', async () => {
    const a = asAccountId(newId());
    const older = await automation(a, { trigger: { type: 'custom_event', event: 'inscription' } as StoredTrigger, createdAt: new Date(Date.now() - 60_000) });
    const newer = await automation(a, { trigger: { type: 'custom_event', event: 'inscription' } as StoredTrigger });
    await automation(a, { trigger: { type: 'custom_event', event: 'Inscription' } as StoredTrigger });
    await automation(a, { trigger: { type: 'custom_event', event: 'inscription' } as StoredTrigger, isActive: false });
    await automation(a, { trigger: { type: 'custom_event', event: 'inscription' } as StoredTrigger, isPublished: false });
    await automation(a, { trigger: { type: 'custom_event', event: 'inscription' } as StoredTrigger, archivedAt: new Date() });
    await automation(asAccountId(newId()), { trigger: { type: 'custom_event', event: 'inscription' } as StoredTrigger });
    await automation(a, { trigger: { type: 'contact_created' } as StoredTrigger });
    const found = await transactions.run(() => store.findTriggered(a, 'custom_event', 'inscription'));
    expect(found.map((entry) => entry.id)).toEqual([older.id, newer.id]);
  });

  it('an enrolment from the same source event is written once (ON CONFLICT on account, automation, source event)', async () => {
    const auto = await automation(asAccountId(newId()));
    const sourceEventId = newId();
    const first = await execution(auto, { sourceEventId });
    const second = await execution(auto, { sourceEventId });
    const manual = await execution(auto, { sourceEventId: null });
    expect([first.inserted, second.inserted, manual.inserted]).toEqual([true, false, true]);
    const rows = await db.query(`SELECT id, status, step_index, retry_count FROM automations.executions WHERE automation_id = $1 ORDER BY created_at, id`, [auto.id]);
    expect(rows).toHaveLength(2);
    expect(rows.map((r: any) => r.id).sort()).toEqual([first.id, manual.id].sort());
    expect(rows.every((r: any) => r.status === 'pending' && r.step_index === 0 && r.retry_count === 0)).toBe(true);
  });

  it('the window counts (duplicates, enrolments, account executions) count only that account, automation and contact', async () => {
    const a = asAccountId(newId());
    const auto = await automation(a);
    const other = await automation(asAccountId(newId()));
    const since = new Date(Date.now() - 60_000);
    const contactId = newId();
    for (const target of [auto, auto, other]) {
      await store.insertExecution({ id: newId(), accountId: target.accountId, automationId: target.id, contactId, triggerType: 'manual_api', eventData: {}, eventFingerprint: 'same', sourceEventId: null, steps: [], createdAt: new Date() });
    }
    expect((await store.duplicateSince(a, auto.id, contactId, 'same', since)).count).toBe(2);
    expect((await store.duplicateSince(a, auto.id, contactId, 'other', since)).count).toBe(0);
    expect((await store.enrolmentsSince(a, auto.id, contactId, since)).count).toBe(2);
    expect((await store.enrolmentsSince(a, other.id, contactId, since)).count).toBe(0);
    const account = await store.accountExecutionsSince(a, since);
    expect(account.count).toBe(2);
    expect(account.oldest).toBeInstanceOf(Date);
  });

  it('a pending execution is acquired once: a second worker gets nothing while the lease runs, and the lease token is written', async () => {
    const auto = await automation(asAccountId(newId()));
    const { id } = await execution(auto);
    const first = await store.acquire(id, newId(), 60_000, new Date());
    const second = await store.acquire(id, newId(), 60_000, new Date());
    expect(first).toMatchObject({ id, status: 'running', automationName: auto.name, restarted: false, retryCount: 0, eventData: { plan: 'pro' } });
    expect(second).toBeNull();
    const stored = await row(id);
    expect(stored.status).toBe('running');
    expect(stored.lease_token).not.toBeNull();
    expect(stored.started_at).not.toBeNull();
  });

  it('a running execution whose lease expired is restarted by another worker with retry_count + 1; the old token no longer owns it', async () => {
    const auto = await automation(asAccountId(newId()));
    const { id } = await execution(auto);
    const oldToken = newId();
    await store.acquire(id, oldToken, 60_000, new Date());
    await store.releaseLease(id, oldToken); // the lease ends now (the worker died)
    const restarted = await store.acquire(id, newId(), 60_000, new Date());
    expect(restarted).toMatchObject({ id, restarted: true, retryCount: 1 });
    expect(await store.renewLease(id, oldToken, 60_000)).toBe(false);
    expect(await transactions.run(() => store.lockOwned(id, oldToken))).toBeNull();
    expect((await row(id)).retry_count).toBe(1);
  });

  it("lockOwned holds the row (FOR UPDATE): another worker's lease renewal waits for the step's transaction to end", async () => {
    const auto = await automation(asAccountId(newId()));
    const { id } = await execution(auto);
    const token = newId();
    await store.acquire(id, token, 60_000, new Date());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const step = transactions.run(async () => {
      expect(await store.lockOwned(id, token)).not.toBeNull();
      locked();
      await held;
    });
    await lockTaken;
    let renewed: boolean | undefined;
    const renewal = store.renewLease(id, token, 60_000).then((value) => (renewed = value));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(renewed).toBeUndefined();
    release();
    await step;
    await renewal;
    expect(renewed).toBe(true);
  });

  it('a finished step is recorded once (the per-step marker) and the cursor moves past it', async () => {
    const auto = await automation(asAccountId(newId()), { steps: [{ type: 'add_tag', tag: 'a' }, { type: 'add_tag', tag: 'b' }] });
    const { id } = await execution(auto);
    const run = (await store.acquire(id, newId(), 60_000, new Date()))!;
    await transactions.run(() => store.recordStep(run, 0, { added: true }, new Date()));
    await transactions.run(() => store.recordStep({ ...run, retryCount: 1 }, 0, { added: false }, new Date()));
    const steps = await db.query(`SELECT step_index, type, result, retry_count FROM automations.execution_steps WHERE execution_id = $1`, [id]);
    expect(steps).toEqual([{ step_index: 0, type: 'add_tag', result: { added: true }, retry_count: 0 }]);
    expect((await row(id)).step_index).toBe(1);
  });

  it('the stale scan finds an expired lease, an overdue wait and a forgotten pending run, not a live lease, a fresh pending run or a finished one', async () => {
    const auto = await automation(asAccountId(newId()));
    const ids = { expired: '', overdue: '', forgotten: '', live: '', fresh: '', done: '' };
    for (const key of Object.keys(ids) as (keyof typeof ids)[]) ids[key] = (await execution(auto)).id;
    await db.query(`UPDATE automations.executions SET status = 'running', lease_token = gen_random_uuid(), lease_expires_at = now() - interval '1 second' WHERE id = $1`, [ids.expired]);
    await db.query(`UPDATE automations.executions SET status = 'waiting', step_index = 1, resume_at = now() - interval '1 minute' WHERE id = $1`, [ids.overdue]);
    await db.query(`UPDATE automations.executions SET updated_at = now() - interval '1 minute' WHERE id = $1`, [ids.forgotten]);
    await db.query(`UPDATE automations.executions SET status = 'running', lease_token = gen_random_uuid(), lease_expires_at = now() + interval '1 minute' WHERE id = $1`, [ids.live]);
    await db.query(`UPDATE automations.executions SET updated_at = now() + interval '1 minute' WHERE id = $1`, [ids.fresh]);
    await db.query(`UPDATE automations.executions SET status = 'completed', finished_at = now(), updated_at = now() - interval '1 minute' WHERE id = $1`, [ids.done]);
    try {
      const stale = await store.findStale(1000, 100);
      const mine = stale.filter((entry) => Object.values(ids).includes(entry.id));
      expect(mine.map((entry) => entry.id).sort()).toEqual([ids.expired, ids.overdue, ids.forgotten].sort());
      expect(mine.find((entry) => entry.id === ids.overdue)).toMatchObject({ status: 'waiting', stepIndex: 1, accountId: auto.accountId });
    } finally {
      // Leave nothing stale for the sweeper test below.
      await db.query(`UPDATE automations.executions SET status = 'completed', lease_token = NULL, lease_expires_at = NULL, resume_at = NULL WHERE automation_id = $1`, [auto.id]);
    }
  });

  it('the sweeper re-queues an execution whose lease expired as one job per minute (idempotent job id) and the processor restarts it (retry_count 1, then waiting)', async () => {
    await db.query(`UPDATE automations.executions SET status = 'completed' WHERE status IN ('pending', 'running', 'waiting')`);
    const auto = await automation(asAccountId(newId()));
    const { id } = await execution(auto);
    await db.query(`UPDATE automations.executions SET status = 'running', lease_token = gen_random_uuid(), lease_expires_at = now() - interval '1 second', updated_at = now() WHERE id = $1`, [id]);
    const minute = Math.floor(Date.now() / 60_000);
    const [first, second] = [await commands.execute(new SweepExecutionsCommand()), await commands.execute(new SweepExecutionsCommand())];
    const sameMinute = Math.floor(Date.now() / 60_000) === minute;
    expect(first.requeued).toBe(1);
    const jobIds = (await queue.getJobs(['waiting', 'active', 'completed', 'delayed', 'failed'])).map((job) => job.id).filter((jobId) => jobId?.startsWith(`${id}.`));
    // The second sweep ran before the processor took the row (same job id: not added again) or after (nothing stale).
    expect(second.requeued).toBeLessThanOrEqual(1);
    // Within one minute the job id repeats: one job. (Across a minute boundary, the second sweep may add the next minute's job.)
    expect(jobIds.length).toBe(sameMinute ? 1 : jobIds.length);
    expect(jobIds.length).toBeLessThanOrEqual(2);
    expect(jobIds).toContain(`${id}.r0.m${minute}`);
    const after = await waitFor(() => row(id), (value) => value.status === 'waiting', 'the restarted run to wait');
    expect(after.retry_count).toBe(1);
    expect(after.resume_at).not.toBeNull();
    expect(after.lease_token).toBeNull();
    const steps = await db.query(`SELECT step_index, type FROM automations.execution_steps WHERE execution_id = $1`, [id]);
    expect(steps).toEqual([{ step_index: 0, type: 'wait' }]);
  });

  it("the execution history pages on (created_at, id) descending with cursors, and another account's automation has no history", async () => {
    const a = asAccountId(newId());
    const auto = await automation(a);
    const base = Date.parse('2026-05-01T10:00:00.000Z');
    const created: { id: string; at: number }[] = [];
    for (const offset of [0, 0, 1000, 2000, 3000]) {
      const { id } = await execution(auto, { createdAt: new Date(base + offset) });
      created.push({ id, at: base + offset });
    }
    const expected = [...created].sort((x, y) => y.at - x.at || (y.id < x.id ? -1 : 1)).map((entry) => entry.id);
    const first = await reads.history(a, auto.id, { limit: 2, after: null });
    expect(first.pagination).toMatchObject({ has_more: true, total_count: 5, limit: 2 });
    const second = await reads.history(a, auto.id, { limit: 2, after: decodeCursor(first.pagination.next_cursor!) });
    const third = await reads.history(a, auto.id, { limit: 2, after: decodeCursor(second.pagination.next_cursor!) });
    expect(third.pagination).toMatchObject({ has_more: false, next_cursor: null });
    expect([...first.data, ...second.data, ...third.data].map((view) => view.id)).toEqual(expected);
    expect(first.data[0]).toMatchObject({ automation_id: auto.id, status: 'pending', steps_completed: 0, steps_total: 1, trigger_type: 'manual_api' });
    const other = asAccountId(newId());
    expect((await reads.history(other, auto.id, { limit: 10, after: null })).pagination.total_count).toBe(0);
    expect(await reads.execution(other, created[0].id)).toBeNull();
    expect((await reads.execution(a, created[0].id))?.id).toBe(created[0].id);
  });

  it("the automations list keeps to the account, leaves archived ones out and filters on is_active", async () => {
    const a = asAccountId(newId());
    const on = await automation(a);
    const off = await automation(a, { isActive: false });
    await automation(a, { archivedAt: new Date() });
    await automation(asAccountId(newId()));
    const all = await reads.list(a, { isActive: null }, { limit: 10, after: null });
    expect(all.data.map((view) => view.id).sort()).toEqual([on.id, off.id].sort());
    expect(all.pagination.total_count).toBe(2);
    expect((await reads.list(a, { isActive: false }, { limit: 10, after: null })).data.map((view) => view.id)).toEqual([off.id]);
    expect((await reads.list(a, { isActive: true }, { limit: 10, after: null })).data[0]).toMatchObject({ id: on.id, steps_count: 1, archived_at: null });
  });
});
