import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Client } from 'pg';
import { EnrolCustomEventCommand } from '@leadflow/automations-contracts';
import { asAccountId, newId } from '@leadflow/shared-kernel';
import { bullConnection, consumerQueueName, IntegrationEventBatchJob, TransactionHost } from '@leadflow/shared-platform';
import { Queue } from 'bullmq';
// The api app drives the worker under test (provisioning, triggers, contact and deal writes) on the same services.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createContact, db, expectStatus } from '../../api/test/support/contacts-fixtures';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { automationsBlueprint, triggered } from '../../api/test/support/automations-fixtures';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { placeDeal } from '../../api/test/support/pipeline-fixtures';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ProvisionedAccount, TestApi } from '../../api/test/support/test-api';
import { createWorker } from '../src/bootstrap';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows are asserted field by field */

/**
 * The automation engine in the real worker (outbox relay → consumer `automations` → execution queue →
 * RunExecutionHandler) on real PostgreSQL and Redis, fed by the real api app (provisioning, manual
 * triggers, contact and deal writes): steps in order, `wait` as a delayed job, failure → `failed`,
 * `automation_completed` in the outbox, contact_created / stage_changed / custom-event enrolment, and a
 * restart after the worker process is killed mid-step (retry_count ≥ 1, no step applied twice).
 */
const ENGINE_ENV = {
  AUTOMATION_LEASE_MS: '1500',
  AUTOMATION_SWEEP_INTERVAL_MS: '200',
  AUTOMATION_STALE_GRACE_MS: '5000',
  OUTBOX_RELAY_INTERVAL_MS: '20',
};

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ENGINE_AUTOMATIONS = [
  {
    name: 'Parcours',
    trigger: { type: 'manual' },
    steps: [
      { type: 'add_tag', tag: 'bienvenue' },
      { type: 'send_email', subject: 'Bonjour {{contact.first_name}} ({{event.plan}})', body: '<p>{{ event.message }}</p><p>{{event.details}}</p><p>{{contact.email}}{{event.absent}}</p>' },
      { type: 'move_to_stage', pipeline_slug: 'ventes', stage_slug: 'gagne' },
      { type: 'remove_tag', tag: 'prospect' },
      { type: 'webhook', event: 'lead_updated' },
    ],
  },
  { name: 'Attente', trigger: { type: 'manual' }, steps: [{ type: 'add_tag', tag: 'avant' }, { type: 'wait', seconds: 1 }, { type: 'add_tag', tag: 'après' }] },
  { name: 'Courriel', trigger: { type: 'manual' }, steps: [{ type: 'send_email', subject: 'S', body: 'B' }, { type: 'add_tag', tag: 'jamais' }] },
  { name: 'Nouveau contact', trigger: { type: 'contact_created' }, steps: [{ type: 'add_tag', tag: 'nouveau' }] },
  { name: 'Gagné', trigger: { type: 'stage_changed', pipeline_slug: 'ventes', stage_slug: 'gagne' }, steps: [{ type: 'add_tag', tag: 'client' }] },
  { name: 'Inscription', trigger: { type: 'custom_event', event: 'inscription' }, steps: [{ type: 'add_tag', tag: 'inscrit' }] },
  { name: 'Panne', trigger: { type: 'manual' }, steps: [{ type: 'add_tag', tag: 'panne' }, { type: 'send_email', subject: 'Après la panne', body: 'x' }] },
];

describe('worker: the automation engine', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let account: ProvisionedAccount;
  let key: string;
  let ids: Record<string, string>;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(automationsBlueprint({ automations: ENGINE_AUTOMATIONS }));
    key = account.api_keys.full.key;
    ids = account.automations as Record<string, string>;
    worker = await createWorker(api.services.config(ENGINE_ENV));
  });
  afterAll(async () => {
    await worker?.close();
    await api.close();
  });

  const sql = () => db(api);
  const execution = async (id: string) => (await sql().query(`SELECT * FROM automations.executions WHERE id = $1`, [id]))[0];
  const finished = (id: string, timeoutMs?: number) =>
    waitFor(() => execution(id), (row) => row.status === 'completed' || row.status === 'failed', `execution ${id} to finish`, timeoutMs);
  /** The contact's tag names, without `nouveau` (every new contact gets it from the contact_created automation). */
  const tagsOf = async (contactId: string) =>
    (await sql().query(`SELECT t.name FROM contacts.contact_tags ct JOIN contacts.tags t ON t.id = ct.tag_id WHERE ct.contact_id = $1 ORDER BY t.name`, [contactId]))
      .map((row) => row.name)
      .filter((name) => name !== 'nouveau');
  const completedEvents = (executionId: string) => sql().query(`SELECT * FROM platform.outbox WHERE type = 'automation_completed' AND payload->>'execution_id' = $1`, [executionId]);
  let sequence = 0;
  const contact = async (body: Record<string, unknown> = {}) =>
    (await createContact(api, key, { email: `personne${++sequence}@example.com`, first_name: 'Nadia', ...body })).id as string;

  it('runs the steps in order (add_tag, send_email with variables, move_to_stage, remove_tag, webhook), completes, and writes automation_completed', async () => {
    const contactId = await contact({ first_name: 'Nadia <b>' });
    expectStatus(await api.request({ method: 'POST', path: '/v1/tags', token: key, body: { name: 'prospect' } }), 201);
    const tagId = (await sql().query(`SELECT id FROM contacts.tags WHERE name = 'prospect' AND account_id = $1`, [account.account_id]))[0].id;
    expectStatus(await api.request({ method: 'POST', path: `/v1/contacts/${contactId}/tags`, token: key, body: { tag_ids: [tagId] } }), 200);
    const started = await triggered(api, key, ids.Parcours, {
      contact_id: contactId,
      event_data: { plan: 'Or', message: 'Merci & <bienvenue>', details: { pièces: 3, étage: 'rez' } },
    });
    const row = await finished(started.id);
    expect(row).toMatchObject({ status: 'completed', step_index: 5, retry_count: 0, error: null });
    // add_tag bienvenue and remove_tag prospect ran; the move to `gagne` also enrols the contact in the
    // 'Gagné' automation (stage_changed), which may already have added `client` by now: not this run's doing.
    const tags = await tagsOf(contactId);
    expect(tags).toContain('bienvenue');
    expect(tags).not.toContain('prospect');
    expect(tags.filter((tag: string) => tag !== 'client')).toEqual(['bienvenue']);
    const [email] = await sql().query(`SELECT * FROM messaging.outgoing_emails WHERE contact_id = $1`, [contactId]);
    expect(email).toMatchObject({ to: `personne${sequence}@example.com`, type: 'automation', subject: 'Bonjour Nadia <b> (Or)' });
    expect(email.html).toContain('Merci &amp; &lt;bienvenue&gt;');
    expect(email.html).toContain('<p>{"étage":"rez","pièces":3}</p>'); // nested objects as JSON (quotes kept as text by the sanitiser)
    expect(email.html).not.toContain('{{');
    const [moved] = await sql().query(`SELECT stage_id FROM contacts.contacts WHERE id = $1`, [contactId]);
    expect(moved.stage_id).toBe((account.pipelines as any).ventes.stages.gagne);
    const [webhook] = await sql().query(`SELECT * FROM platform.outbox WHERE type = 'lead_updated' AND payload->>'execution_id' = $1`, [started.id]);
    expect(webhook.payload).toMatchObject({ source: 'automation_webhook_step', automation_id: ids.Parcours, contact_id: contactId });
    expect(webhook.actor).toMatchObject({ type: 'automation', id: ids.Parcours });
    const steps = await sql().query(`SELECT step_index, type FROM automations.execution_steps WHERE execution_id = $1 ORDER BY step_index`, [started.id]);
    expect(steps.map((step) => step.type)).toEqual(['add_tag', 'send_email', 'move_to_stage', 'remove_tag', 'webhook']);
    const completed = await completedEvents(started.id);
    expect(completed).toHaveLength(1);
    expect(completed[0].payload).toMatchObject({ automation_id: ids.Parcours, automation_name: 'Parcours', contact_id: contactId, trigger_type: 'manual_api' });
    const history = expectStatus(await api.request({ path: `/v1/automations/${ids.Parcours}/history`, token: key }), 200).body.data;
    expect(history[0]).toMatchObject({ id: started.id, status: 'completed', trigger_type: 'manual_api', retry_count: 0, steps_completed: 5, steps_total: 5 });
  });

  it('wait is a delayed job: the run is waiting with resume_at, then resumes at the next step', async () => {
    const contactId = await contact();
    const started = await triggered(api, key, ids.Attente, { contact_id: contactId });
    const waiting = await waitFor(() => execution(started.id), (row) => row.status === 'waiting', 'the wait');
    expect(waiting.step_index).toBe(2);
    expect(waiting.resume_at).toBeInstanceOf(Date);
    expect(await tagsOf(contactId)).toEqual(['avant']);
    const row = await finished(started.id);
    expect(row.status).toBe('completed');
    expect(await tagsOf(contactId)).toEqual(['après', 'avant']);
    expect(row.finished_at.getTime() - waiting.updated_at.getTime()).toBeGreaterThanOrEqual(0);
  });

  it('a step refused for a business reason makes the execution failed (error kept), later steps not run, no automation_completed', async () => {
    const contactId = (await createContact(api, key, { phone: '+15145550199', first_name: 'Sans courriel' })).id;
    const started = await triggered(api, key, ids.Courriel, { contact_id: contactId });
    const row = await finished(started.id);
    expect(row).toMatchObject({ status: 'failed', step_index: 0 });
    expect(row.error).toMatchObject({ step_index: 0, step_type: 'send_email', code: 'step_failed', details: { reason: 'contact_without_email' } });
    expect(await tagsOf(contactId)).toEqual([]);
    expect(await completedEvents(started.id)).toHaveLength(0);
  });

  it('contact_created trigger: a new contact enrols the automation (trigger_type contact_created), once per event', async () => {
    const contactId = await contact();
    const [enrolled] = await waitFor(
      () => sql().query(`SELECT * FROM automations.executions WHERE automation_id = $1 AND contact_id = $2`, [ids['Nouveau contact'], contactId]),
      (rows) => rows.length > 0,
      'the contact_created enrolment',
    );
    expect(enrolled.trigger_type).toBe('contact_created');
    expect((await finished(enrolled.id)).status).toBe('completed');
    expect(await sql().count('contacts.contact_tags ct JOIN contacts.tags t ON t.id = ct.tag_id', `ct.contact_id = $1 AND t.name = 'nouveau'`, [contactId])).toBe(1);
    // The same outbox event delivered again (a new batch job on the consumer queue) is skipped by the
    // consumer's inbox; delivered once more after its inbox row is gone (a crash between the handler and
    // the inbox write), it enrols nothing more: executions are unique per (automation, source event id).
    expect(enrolled.source_event_id).toEqual(expect.any(String));
    const [event] = await sql().query(`SELECT id, sequence::text AS sequence, account_id, type, payload, actor, occurred_at FROM platform.outbox WHERE id = $1`, [enrolled.source_event_id]);
    const queue = new Queue<IntegrationEventBatchJob>(consumerQueueName('automations'), { connection: bullConnection(api.services.redisUrl), prefix: `${api.services.redisPrefix}:bull` });
    const redeliver = async (jobId: string) => {
      const job = await queue.add('events', {
        events: [{ id: event.id, type: event.type }],
      }, { jobId });
      await waitFor(() => job.getState(), (state) => state === 'completed', 'the redelivered event');
      return (await queue.getJob(job.id!))?.returnvalue;
    };
    try {
      expect(await redeliver(`${event.id}.redelivered`)).toEqual({ handled: 0, skipped: 1, rejected: 0 });
      await sql().query(`DELETE FROM platform.event_inbox WHERE event_id = $1 AND consumer = 'automations'`, [event.id]);
      expect(await redeliver(`${event.id}.redelivered-again`)).toEqual({ handled: 1, skipped: 0, rejected: 0 });
    } finally {
      await queue.close();
    }
    expect(await sql().count('automations.executions', 'automation_id = $1 AND contact_id = $2', [ids['Nouveau contact'], contactId])).toBe(1);
  });

  it('stage_changed trigger with a stage filter: a move into that stage enrols, a move elsewhere does not', async () => {
    const stages = (account.pipelines as any).ventes.stages;
    const elsewhere = await contact();
    const into = await contact();
    await placeDeal(api, key, elsewhere, stages.nouveau);
    await placeDeal(api, key, into, stages.gagne);
    const [enrolled] = await waitFor(
      () => sql().query(`SELECT * FROM automations.executions WHERE automation_id = $1 AND contact_id = $2`, [ids['Gagné'], into]),
      (rows) => rows.length > 0,
      'the stage_changed enrolment',
    );
    expect(enrolled.trigger_type).toBe('stage_changed');
    expect(enrolled.event_data).toMatchObject({ to_stage_id: stages.gagne });
    await finished(enrolled.id);
    expect(await tagsOf(into)).toContain('client');
    expect(await sql().count('automations.executions', 'automation_id = $1 AND contact_id = $2', [ids['Gagné'], elsewhere])).toBe(0);
  });

  it('EnrolCustomEventCommand: enrols matching custom_event automations (case-sensitive), deduplicated 5 minutes per contact and automation', async () => {
    const contactId = await contact();
    const commands = api.app.get(CommandBus);
    const transactions = api.app.get(TransactionHost);
    const enrol = (name: string) =>
      transactions.run(() => commands.execute(new EnrolCustomEventCommand(asAccountId(account.account_id), contactId, name, { message: 'x' }, newId())));
    expect(await enrol('Inscription')).toEqual({ executionIds: [] });
    const first = await enrol('inscription');
    expect(first.executionIds).toHaveLength(1);
    expect(await enrol('inscription')).toEqual({ executionIds: [] });
    api.clock.advance(5 * 60 * 1000 + 1);
    expect((await enrol('inscription')).executionIds).toHaveLength(1);
    const row = await finished(first.executionIds[0]);
    expect(row).toMatchObject({ status: 'completed', trigger_type: 'custom_event', event_data: { message: 'x' } });
  });

  /** An execution row written directly (as if its hand-off, delayed job or worker had been lost). */
  const insertExecution = async (automationName: string, contactId: string, state: string) => {
    const id = newId();
    await sql().query(
      `INSERT INTO automations.executions (id, account_id, automation_id, contact_id, status, trigger_type, event_fingerprint, steps, step_index,
         retry_count, lease_token, lease_expires_at, resume_at, started_at, created_at, updated_at)
       SELECT $1, account_id, id, $2, s.status, 'manual_api', '', steps, s.step_index, s.retry_count, s.lease_token, s.lease_expires_at, s.resume_at,
              now() - interval '1 minute', now() - interval '1 minute', now() - interval '1 minute'
         FROM automations.automations,
              (SELECT * FROM (VALUES
                 ('pending', 'pending', 0, 0, NULL::uuid, NULL::timestamptz, NULL::timestamptz),
                 ('waiting', 'waiting', 2, 0, NULL, NULL, now() - interval '1 minute'),
                 ('crashed', 'running', 0, 5, gen_random_uuid(), now() - interval '1 second', NULL)
               ) AS v(state, status, step_index, retry_count, lease_token, lease_expires_at, resume_at) WHERE v.state = $4) s
        WHERE automations.automations.id = $3`,
      [id, contactId, ids[automationName], state],
    );
    return id;
  };

  it('sweeper: a pending execution whose hand-off was lost is queued again and runs', async () => {
    const contactId = await contact();
    const id = await insertExecution('Attente', contactId, 'pending');
    const row = await finished(id);
    expect(row).toMatchObject({ status: 'completed', retry_count: 0 });
    expect(await tagsOf(contactId)).toEqual(['après', 'avant']);
  });

  it('sweeper: a waiting execution whose delayed job was lost resumes at its next step', async () => {
    const contactId = await contact();
    const id = await insertExecution('Attente', contactId, 'waiting');
    const row = await finished(id);
    expect(row).toMatchObject({ status: 'completed', step_index: 3, retry_count: 0 });
    expect(await tagsOf(contactId)).toEqual(['après']);
  });

  it('sweeper: a running execution whose lease expired after the last allowed restart becomes failed (retries_exhausted)', async () => {
    const contactId = await contact();
    const id = await insertExecution('Attente', contactId, 'crashed');
    const row = await finished(id);
    expect(row).toMatchObject({ status: 'failed', retry_count: 6 });
    expect(row.error).toMatchObject({ code: 'retries_exhausted', step_index: 0 });
    expect(await tagsOf(contactId)).toEqual([]);
    expect(await completedEvents(id)).toHaveLength(0);
  });

  it('a run whose worker process is killed mid-step is restarted by another worker with retry_count ≥ 1, its steps applied once', async () => {
    // Worker A: a separate process, killed with SIGKILL while its add_tag step waits on the contact row.
    await worker.close();
    worker = undefined as unknown as INestApplicationContext;
    const contactId = await contact();
    const locker = new Client({ connectionString: api.services.databaseUrl });
    await locker.connect();
    let killed: ChildProcess | null = null;
    try {
      await locker.query('BEGIN');
      await locker.query(`SELECT id FROM contacts.contacts WHERE id = $1 FOR UPDATE`, [contactId]);
      killed = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, '../src/main.ts')], {
        cwd: join(__dirname, '../../..'),
        env: {
          ...process.env,
          ...ENGINE_ENV,
          SWCRC: 'true',
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          DATABASE_URL: api.services.databaseUrl,
          REDIS_URL: api.services.redisUrl,
          REDIS_PREFIX: api.services.redisPrefix,
        },
        stdio: 'ignore',
      });
      const started = await triggered(api, key, ids.Panne, { contact_id: contactId });
      await waitFor(() => execution(started.id), (row) => row.status === 'running', 'worker A to start the run', 40_000);
      await waitFor(
        async () => (await locker.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0].n,
        (waiting) => waiting > 0,
        'worker A to block in its add_tag step',
      );
      const exited = new Promise((resolve) => killed!.once('exit', resolve));
      killed.kill('SIGKILL');
      await exited;
      // Worker B starts; the lock is released; B's sweeper finds the expired lease and restarts the run.
      worker = await createWorker(api.services.config(ENGINE_ENV));
      await locker.query('ROLLBACK');
      const row = await finished(started.id, 30_000);
      expect(row).toMatchObject({ status: 'completed', step_index: 2 });
      expect(row.retry_count).toBeGreaterThanOrEqual(1);
      expect(await tagsOf(contactId)).toEqual(['panne']);
      expect(await sql().count('messaging.outgoing_emails', 'contact_id = $1', [contactId])).toBe(1);
      expect(await sql().count('automations.execution_steps', 'execution_id = $1', [started.id])).toBe(2);
      expect(await completedEvents(started.id)).toHaveLength(1);
      const history = expectStatus(await api.request({ path: `/v1/automations/${ids.Panne}/history`, token: key }), 200).body.data;
      expect(history[0]).toMatchObject({ id: started.id, status: 'completed', retry_count: row.retry_count });
    } finally {
      if (killed && killed.exitCode === null && killed.signalCode === null) killed.kill('SIGKILL');
      await locker.end();
    }
  }, 90_000);
});
