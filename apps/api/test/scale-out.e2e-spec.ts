import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { bullConnection, consumerQueueName } from '@leadflow/shared-platform';
import { createTestServices, SmtpSink, TEST_ADMIN_TOKEN, TestServices } from '@leadflow/shared-testing';
import { WEBHOOK_EVENTS } from '@leadflow/webhooks-contracts';
import { generateCertificate, HttpsReceiver, TestCertificate } from './support/webhooks-fixtures';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows and bodies are asserted field by field */

/**
 * Scale-out on the engines we already run (issue 11, item 5): 2 api processes and 2 worker processes,
 * real children started like `npm start` starts them (`node -r @swc-node/register apps/…/main.ts`,
 * SWCRC=true), share ONE PostgreSQL database and ONE Redis prefix. Leads are captured alternately
 * through both apis (some submitted to both at once); then every lead is stored once, every outbox row
 * relayed once, every webhook delivered once per subscription, every automation execution and every
 * email run once — nothing duplicated, nothing lost, with both workers taking their share.
 */

const ROOT = join(__dirname, '..', '..', '..');
/** Leads captured (each a new email). */
const LEADS = 240;
/** Every `DUPLICATE_EVERY`-th lead is also submitted, at the same moment, to the other api. */
const DUPLICATE_EVERY = 6;
/** Requests in flight at once, across both apis. */
const CONCURRENCY = 8;
/** Longest wait for the pipeline (relay → consumers → webhooks, automations, emails) to settle (ms). */
const SETTLE_TIMEOUT_MS = 60_000;
/** Pause after settling, for late duplicates (sweepers re-enqueueing, a second relay) to show up (ms). */
const LATE_DUPLICATE_WINDOW_MS = 2500;

/** Every queue the scenario goes through: the relay's, the consumers' (fanned out), and the work queues. */
const QUEUES = [
  ...['automations', 'webhooks', 'outgoing-emails', 'lead-follow-up'].map(consumerQueueName),
  'automation-executions',
  'webhook-delivery',
  'email-delivery',
];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * One api or worker child process: stdout/stderr kept (last 3000 lines) for diagnostics; an IPC channel
 * so the child shuts itself down if this test process dies (main.ts listens for `disconnect`).
 */
class AppProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  constructor(
    readonly name: string,
    entry: string,
    env: Record<string, string | undefined>,
  ) {
    this.child = spawn(process.execPath, ['-r', '@swc-node/register', entry], { cwd: ROOT, env: { ...env, SWCRC: 'true' }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.length > 0) this.lines.push(line);
      if (this.lines.length > 3000) this.lines.splice(0, this.lines.length - 3000);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      }),
    );
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exit === null;
  }

  describe(): string {
    return this.exit ? `exited: code ${this.exit.code}, signal ${this.exit.signal}` : 'alive';
  }

  /**
   * Log lines (pino JSON) whose `msg` is `message`. The apps buffer their logs (4 KiB, flushed at exit),
   * so a count is complete only once the process has exited.
   */
  logged(message: string): number {
    const needle = `"msg":${JSON.stringify(message)}`;
    return this.lines.filter((line) => line.includes(needle)).length;
  }

  /** The last `count` lines that are not info or debug logs (warnings, errors, anything not pino JSON), then the last 3 lines. */
  tail(count = 20): string {
    const notable = this.lines.filter((line) => !/^\{"level":(10|20|30),/.test(line)).slice(-count);
    return [...notable, '…', ...this.lines.slice(-3)].join('\n');
  }

  /** SIGTERM (graceful shutdown), SIGKILL after `timeoutMs`. Resolves once the process is gone. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}

interface Answer {
  status: number;
  body: any;
}

async function call(port: number, method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed };
}

/** Runs `tasks` with at most `limit` in flight. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]();
      }
    }),
  );
  return results;
}

describe('scale-out: 2 api and 2 worker processes on one PostgreSQL database and one Redis prefix', () => {
  let services: TestServices;
  let certificate: TestCertificate;
  let receiver: HttpsReceiver;
  let sink: SmtpSink;
  let sql: Client;
  const apis: AppProcess[] = [];
  const workers: AppProcess[] = [];
  const apiPorts: number[] = [];
  let queues: Queue[] = [];
  const startedAt = Date.now();

  const all = () => [...apis, ...workers];
  const diagnostics = () => all().map((app) => `--- ${app.name} (pid ${app.pid}, ${app.describe()})\n${app.tail()}`).join('\n');

  async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs: number, everyMs = 200): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const dead = all().find((app) => !app.alive);
      if (dead) throw new Error(`${dead.name} exited while waiting for ${what}\n${diagnostics()}`);
      const value = await read().catch(() => undefined as T);
      if (value !== undefined && done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}\n${diagnostics()}`);
      await pause(everyMs);
    }
  }

  beforeAll(async () => {
    services = await createTestServices();
    certificate = generateCertificate();
    [receiver, sink] = await Promise.all([HttpsReceiver.start(certificate), SmtpSink.start()]);
    sql = new Client({ connectionString: services.databaseUrl });
    await sql.connect();
    queues = QUEUES.map((name) => new Queue(name, { connection: bullConnection(services.redisUrl), prefix: `${services.redisPrefix}:bull` }));

    const shared: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: services.databaseUrl,
      REDIS_URL: services.redisUrl,
      REDIS_PREFIX: services.redisPrefix,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SMTP_URL: sink.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_CA_FILE: certificate.certFile,
    };
    for (let index = 0; index < 2; index++) {
      const port = await freePort();
      apiPorts.push(port);
      // Per-IP limits count the X-Forwarded-For address given by this (trusted, loopback) client.
      apis.push(new AppProcess(`api-${index + 1}`, 'apps/api/src/main.ts', { ...shared, PORT: String(port), HOST: '127.0.0.1', TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'warn' }));
    }
    for (let index = 0; index < 2; index++) {
      workers.push(
        new AppProcess(`worker-${index + 1}`, 'apps/worker/src/main.ts', {
          ...shared,
          LOG_LEVEL: 'info', // one "Email sent" line per email: which worker sent what
          OUTBOX_RELAY_INTERVAL_MS: '50',
          OUTBOX_RELAY_BATCH_SIZE: '25', // small batches: the two relays interleave on the outbox
          EMAIL_RETRY_DELAY_MS: '200',
          WEBHOOK_RETRY_BASE_MS: '100',
          WEBHOOK_LEASE_MS: '15000',
          // The sweepers of both workers race the processors: deliveries and executions still waiting
          // after 1 s (a backlog, not a loss) are queued again, so duplicate jobs meet on one row.
          WEBHOOK_SWEEP_INTERVAL_MS: '700',
          WEBHOOK_SWEEP_GRACE_MS: '1000',
          AUTOMATION_SWEEP_INTERVAL_MS: '700',
          AUTOMATION_STALE_GRACE_MS: '1000',
        }),
      );
    }
    await Promise.all([
      ...apis.map((api, index) => waitUntil(() => call(apiPorts[index], 'GET', '/health', ''), (answer) => answer.status === 200, `${api.name} /health`, 45_000, 250)),
      // A worker is up once its BullMQ workers are registered (CLIENT SETNAME); both on every queue.
      waitUntil(async () => Promise.all(queues.map((queue) => queue.getWorkersCount())), (counts) => counts.every((n) => n >= 2), 'both workers on every queue', 45_000, 250),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(all().map((app) => app.stop()));
    await Promise.all(queues.map((queue) => queue.close().catch(() => undefined)));
    await sql?.end().catch(() => undefined);
    await receiver?.stop().catch(() => undefined);
    await sink?.stop().catch(() => undefined);
    certificate?.remove();
    await services?.dispose();
  }, 30_000);

  it('captures leads through both apis; every lead stored once, every event relayed once, every webhook, execution and email once', async () => {
    const bootMs = Date.now() - startedAt;
    // 1. The account, through the operator API of api-1: a contact_created automation that sends an email, a default sender.
    const provisioned = await call(apiPorts[0], 'POST', '/admin/v1/accounts', TEST_ADMIN_TOKEN, {
      name: 'Rénovations Tremblay – scale-out',
      api_terms_accepted: true,
      timezone: 'America/Montreal',
      systems: [{ name: 'Main', is_main: true }],
      senders: [{ email: 'bonjour@tremblay.test', name: 'Rénovations Tremblay', is_default: true }],
      pipelines: [
        { name: 'Ventes', slug: 'ventes', is_default: true, stages: [{ name: 'Nouveau', slug: 'nouveau', is_default: true }, { name: 'Gagné', slug: 'gagne', is_won: true }] },
      ],
      api_keys: [
        { name: 'capture', preset: 'lead_capture', per_hour: 100000 },
        { name: 'full', preset: 'full_integration', per_hour: 100000 },
      ],
      automations: [
        { name: 'Bienvenue', trigger: { type: 'contact_created' }, steps: [{ type: 'send_email', subject: 'Bienvenue {{contact.first_name}}', body: '<p>Merci {{contact.first_name}}</p>' }] },
      ],
    });
    expect(provisioned.status).toBe(201);
    const accountId: string = provisioned.body.account_id;
    const captureKey: string = provisioned.body.api_keys.capture.key;
    const fullKey: string = provisioned.body.api_keys.full.key;

    // 2. Two webhook subscriptions to the HTTPS receiver, one created through each api.
    const everything = await call(apiPorts[0], 'POST', '/v1/webhooks', fullKey, { url: receiver.url('/all'), events: '*' });
    const leadsOnly = await call(apiPorts[1], 'POST', '/v1/webhooks', fullKey, { url: receiver.url('/leads'), events: ['lead_created', 'contact_created'] });
    expect([everything.status, leadsOnly.status]).toEqual([201, 201]);
    const subscriptions = [
      { id: everything.body.data.id as string, path: '/all', accepts: (type: string) => (WEBHOOK_EVENTS as readonly string[]).includes(type) },
      { id: leadsOnly.body.data.id as string, path: '/leads', accepts: (type: string) => type === 'lead_created' || type === 'contact_created' },
    ];

    // 3. The captures: lead i through api (i mod 2); every 6th also through the other api at the same moment.
    const captureStarted = Date.now();
    const emailOf = (index: number) => `lead.${index}@scale-out.test`;
    const phoneOf = (index: number) => `(514) 302-${String(index).padStart(4, '0')}`;
    let address = 0;
    const capture = (index: number, api: number) => () =>
      call(apiPorts[api], 'POST', '/v1/leads/capture', captureKey, { email: emailOf(index), phone: phoneOf(index), sms_consent: true, first_name: `Lead${index}`, source_label: 'Scale-out' }, {
        'x-forwarded-for': `10.77.${(++address >> 8) & 255}.${address & 255}`,
      }).then((answer) => ({ index, api, ...answer }));
    const tasks: (() => Promise<{ index: number; api: number } & Answer>)[] = [];
    for (let index = 0; index < LEADS; index++) {
      const api = index % 2;
      if (index % DUPLICATE_EVERY === 0) {
        tasks.push(() => Promise.all([capture(index, api)(), capture(index, 1 - api)()]).then((pair) => pair) as any);
      } else tasks.push(capture(index, api));
    }
    const answers = (await pool(tasks, CONCURRENCY)).flat() as ({ index: number; api: number } & Answer)[];
    const captureMs = Date.now() - captureStarted;

    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.map((answer) => [answer.index, answer.status, answer.body])).toEqual([]);
    const duplicates = Math.ceil(LEADS / DUPLICATE_EVERY);
    expect(answers).toHaveLength(LEADS + duplicates);
    expect(answers.filter((answer) => answer.body.status === 'created')).toHaveLength(LEADS);
    expect(answers.filter((answer) => answer.body.status === 'idempotent_replay')).toHaveLength(duplicates);
    for (const api of [0, 1]) expect(answers.filter((answer) => answer.api === api).length).toBeGreaterThanOrEqual(LEADS / 2);

    // 4. Wait for the pipeline to settle: outbox empty, every email and execution settled, every expected delivery made.
    const q = async (text: string, values: unknown[] = [accountId]) => (await sql.query(text, values)).rows as any[];
    const expectedDeliveries = async () => {
      const events = await q(`SELECT type, count(*)::int AS n FROM platform.outbox WHERE account_id = $1 GROUP BY type`);
      return events.reduce((sum, row) => sum + subscriptions.filter((subscription) => subscription.accepts(row.type)).length * row.n, 0);
    };
    const progress = async () => {
      const [row] = await q(
        `SELECT (SELECT count(*)::int FROM platform.outbox WHERE relayed_at IS NULL) AS unrelayed,
                (SELECT count(*)::int FROM messaging.outgoing_emails WHERE account_id = $1 AND status = 'sent') AS emails_sent,
                (SELECT count(*)::int FROM automations.executions WHERE account_id = $1 AND status = 'completed') AS executions_completed,
                (SELECT count(*)::int FROM webhooks.deliveries WHERE account_id = $1) AS deliveries,
                (SELECT count(*)::int FROM webhooks.deliveries WHERE account_id = $1 AND status = 'succeeded') AS deliveries_succeeded`,
      );
      return { ...row, expected: await expectedDeliveries(), received: receiver.received.length };
    };
    const settleStarted = Date.now();
    await waitUntil(
      progress,
      (p) =>
        p.unrelayed === 0 &&
        p.emails_sent === LEADS &&
        p.executions_completed === LEADS &&
        p.deliveries === p.expected &&
        p.deliveries_succeeded === p.expected &&
        p.received >= p.expected,
      'the pipeline to settle',
      SETTLE_TIMEOUT_MS,
      250,
    );
    const settleMs = Date.now() - settleStarted;
    await pause(LATE_DUPLICATE_WINDOW_MS);

    // Leads: one contact per email, one capture per lead.
    const contacts = await q(`SELECT lower(email) AS email, count(*)::int AS n FROM contacts.contacts WHERE account_id = $1 GROUP BY 1`);
    expect(contacts).toHaveLength(LEADS);
    expect(contacts.filter((row) => row.n !== 1)).toEqual([]);
    expect(new Set(contacts.map((row) => row.email))).toEqual(new Set(Array.from({ length: LEADS }, (_, index) => emailOf(index))));
    expect(new Set(answers.map((answer) => answer.body.contact_id)).size).toBe(LEADS);
    const [{ captures }] = await q(`SELECT count(*)::int AS captures FROM contacts.lead_captures WHERE account_id = $1`);
    expect(captures).toBe(LEADS);

    // Outbox: every row relayed by exactly one relay pass (relay_attempts 1), recorded once by each of its
    // consumers in the inbox, none re-enqueued by a reconciler, no batch job failed.
    const outbox = await q(`SELECT id, type, relayed_at, relay_attempts, reconcile_attempts FROM platform.outbox WHERE account_id = $1`);
    expect(outbox.filter((row) => row.relayed_at === null || row.relay_attempts !== 1)).toEqual([]);
    const typeCounts = outbox.reduce<Record<string, number>>((counts, row) => ({ ...counts, [row.type]: (counts[row.type] ?? 0) + 1 }), {});
    expect(typeCounts).toMatchObject({ contact_created: LEADS, lead_created: LEADS, automation_execution_requested: LEADS, email_queued: LEADS, email_sent: LEADS, automation_completed: LEADS });
    const jobCounts: Record<string, Record<string, number>> = {};
    for (const queue of queues) jobCounts[queue.name] = await queue.getJobCounts('completed', 'failed', 'active', 'waiting', 'delayed', 'prioritized');
    expect(outbox.filter((row) => row.reconcile_attempts !== 0)).toEqual([]);
    const inbox = await q(`SELECT event_id, consumer, outcome FROM platform.event_inbox WHERE account_id = $1`);
    const consumersOf: Record<string, string[]> = {
      lead_created: ['lead-follow-up', 'webhooks'],
      contact_created: ['automations', 'webhooks'],
      automation_execution_requested: ['automations'],
      email_queued: ['outgoing-emails'],
    };
    const expectedInbox = outbox.flatMap((row) => (consumersOf[row.type] ?? []).map((consumer) => `${row.id}|${consumer}|handled`));
    const recorded = new Set(inbox.map((row) => `${row.event_id}|${row.consumer}|${row.outcome}`));
    expect(expectedInbox.length).toBeGreaterThan(LEADS * 5);
    expect(expectedInbox.filter((entry) => !recorded.has(entry))).toEqual([]);
    expect(inbox.filter((row) => row.outcome !== 'handled')).toEqual([]);
    for (const name of QUEUES) expect({ name, failed: jobCounts[name].failed, active: jobCounts[name].active }).toEqual({ name, failed: 0, active: 0 });

    // Webhooks: one delivery per (event, subscription), each attempted once and received once.
    const deliveries = await q(`SELECT id, event_id, subscription_id, event, status, attempt FROM webhooks.deliveries WHERE account_id = $1`);
    const expected = outbox.flatMap((event) => subscriptions.filter((subscription) => subscription.accepts(event.type)).map((subscription) => `${event.id}|${subscription.id}`));
    expect(deliveries.map((row) => `${row.event_id}|${row.subscription_id}`).sort()).toEqual(expected.sort());
    expect(deliveries.filter((row) => row.status !== 'succeeded' || row.attempt !== 1)).toEqual([]);
    const [{ attempts }] = await q(`SELECT count(*)::int AS attempts FROM webhooks.delivery_attempts WHERE account_id = $1`);
    expect(attempts).toBe(deliveries.length);
    // The sweepers of both workers leave a delivery that is only late behind the backlog alone: at most a
    // few extra (no-op) jobs, where a sweep met an attempt job just taken by a worker.
    expect(jobCounts['webhook-delivery'].completed).toBeLessThanOrEqual(Math.ceil(deliveries.length * 1.05));
    const receivedPerDelivery = new Map<string, number>();
    for (const request of receiver.received) {
      const id = String(request.headers['x-service-delivery']);
      receivedPerDelivery.set(id, (receivedPerDelivery.get(id) ?? 0) + 1);
    }
    expect([...receivedPerDelivery.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect([...receivedPerDelivery.keys()].sort()).toEqual(deliveries.map((row) => row.id).sort());
    const byDelivery = new Map(deliveries.map((row) => [row.id as string, row]));
    const receivedPerEventAndPath = new Map<string, number>();
    for (const request of receiver.received) {
      const delivery = byDelivery.get(String(request.headers['x-service-delivery']))!;
      expect(request.path).toBe(subscriptions.find((subscription) => subscription.id === delivery.subscription_id)!.path);
      expect(request.body.event).toBe(delivery.event);
      const key = `${delivery.event_id}|${request.path}`;
      receivedPerEventAndPath.set(key, (receivedPerEventAndPath.get(key) ?? 0) + 1);
    }
    expect(receivedPerEventAndPath.size).toBe(expected.length);
    expect([...receivedPerEventAndPath.values()].every((n) => n === 1)).toBe(true);

    // Lead follow-up (contacts consumer of lead_created): one SMS hand-off per lead.
    const handoffs = await q(`SELECT contact_id, count(*)::int AS n FROM contacts.sms_handoffs WHERE account_id = $1 GROUP BY contact_id`);
    expect(handoffs).toHaveLength(LEADS);
    expect(handoffs.filter((row) => row.n !== 1)).toEqual([]);

    // Automations: one execution per contact (the contact_created event), completed without restart, its one step run once.
    const executions = await q(`SELECT contact_id, count(*)::int AS n, min(status) AS status, max(retry_count) AS retries FROM automations.executions WHERE account_id = $1 GROUP BY contact_id`);
    expect(executions).toHaveLength(LEADS);
    expect(executions.filter((row) => row.n !== 1 || row.status !== 'completed' || row.retries !== 0)).toEqual([]);
    const [{ steps }] = await q(`SELECT count(*)::int AS steps FROM automations.execution_steps WHERE account_id = $1`);
    expect(steps).toBe(LEADS);

    // Emails: one outgoing email per contact, sent at the first attempt, one message per recipient in the SMTP sink.
    const emails = await q(`SELECT "to", count(*)::int AS n, min(status) AS status, max(attempts) AS attempts FROM messaging.outgoing_emails WHERE account_id = $1 GROUP BY "to"`);
    expect(emails).toHaveLength(LEADS);
    expect(emails.filter((row) => row.n !== 1 || row.status !== 'sent' || row.attempts !== 1)).toEqual([]);
    expect(sink.received).toHaveLength(LEADS);
    const perRecipient = new Map<string, number>();
    for (const message of sink.received) for (const to of message.recipients) perRecipient.set(to.toLowerCase(), (perRecipient.get(to.toLowerCase()) ?? 0) + 1);
    expect(perRecipient.size).toBe(LEADS);
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
    for (let index = 0; index < LEADS; index++) expect(sink.attemptsFor(emailOf(index))).toBe(1);

    // Graceful stop of all four (SIGTERM): each exits cleanly and flushes its logs. Both workers took
    // their share: each logs "Email sent" for the emails it handed over.
    await Promise.all(all().map((app) => app.stop()));
    for (const app of all()) expect([app.name, app.describe()]).toEqual([app.name, expect.stringMatching(/^exited: (code 0, signal null|code null, signal SIGTERM)$/)]);
    const sentBy = workers.map((worker) => worker.logged('Email sent'));
    expect(sentBy.reduce((a, b) => a + b, 0)).toBe(LEADS);
    expect(sentBy.every((n) => n > 0)).toBe(true);

    console.log(
      JSON.stringify(
        {
          processes: { apis: apis.map((api) => api.pid), workers: workers.map((worker) => worker.pid) },
          leads: LEADS,
          capture_requests: answers.length,
          duplicate_submissions: duplicates,
          contacts: contacts.length,
          outbox_events: outbox.length,
          outbox_by_type: typeCounts,
          webhook_deliveries: deliveries.length,
          webhook_requests_received: receiver.received.length,
          automation_executions: executions.length,
          sms_handoffs: handoffs.length,
          // Jobs beyond one per row: duplicates added by the sweepers racing the processors, each a no-op on its row.
          extra_jobs_absorbed: {
            'webhook-delivery': jobCounts['webhook-delivery'].completed - deliveries.length,
            'automation-executions': jobCounts['automation-executions'].completed - executions.length,
          },
          emails_sent: emails.length,
          smtp_messages: sink.received.length,
          emails_sent_by_worker: sentBy,
          job_counts: jobCounts,
          ms: { boot: bootMs, capture: captureMs, settle: settleMs, total: Date.now() - startedAt },
        },
        null,
        2,
      ),
    );
  }, 90_000);
});
