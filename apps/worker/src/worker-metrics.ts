import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue, Worker } from 'bullmq';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { Clock, DomainError } from '@leadflow/shared-kernel';
import {
  AppConfig,
  FailedAttempts,
  METRICS_CHALLENGE,
  METRICS_PATH,
  METRICS_UNAUTHORIZED_BODY,
  metricsScrapeAllowed,
  OutboxBacklog,
  ReadReplicaRouter,
  readOutboxBacklog,
  registerReadReplicaMetrics,
  renderDomainError,
} from '@leadflow/shared-platform';
import { NodeHttpListener } from './node-http-listener';

/** Queue states counted by `leadflow_queue_jobs{queue,state}` (BullMQ job states). */
export const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;

/** Statuses written by the contexts, listed so each series exists (at 0) before its first row. */
const WEBHOOK_ATTEMPT_OUTCOMES = ['succeeded', 'retrying', 'failed'];
const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'];
const EXECUTION_STATUSES = ['pending', 'running', 'waiting', 'completed', 'failed'];

/**
 * The worker's Prometheus metrics (issue 17, item 1). Everything but the job counters is read when Prometheus
 * scrapes (gauges' `collect()`), nothing is polled:
 * - `leadflow_queue_jobs{queue,state}`: jobs per BullMQ queue in {@link QUEUE_STATES} (Redis, whole queue);
 * - `leadflow_queue_jobs_completed_total{queue}`, `leadflow_queue_jobs_failed_total{queue}`: jobs this process
 *   completed, attempts this process saw fail (a retried job counts each failed attempt);
 * - `leadflow_outbox_backlog` (unrelayed `platform.outbox` rows) and `leadflow_outbox_oldest_unrelayed_age_seconds`
 *   (relay lag: age of the oldest unrelayed event, 0 when none);
 * - `leadflow_webhook_attempts{outcome}`: rows of `webhooks.delivery_attempts` by outcome (succeeded, retrying, failed);
 * - `leadflow_outgoing_emails{status}`: `messaging.outgoing_emails` by status (queued, sending, sent, failed);
 * - `leadflow_automation_executions{status}`: `automations.executions` by status;
 * - `leadflow_metrics_collect_errors_total{source}`: readings that failed (the series is then absent from that scrape);
 * - with `DATABASE_READ_URLS` set, the read-routing series (registerReadReplicaMetrics); the table and outbox
 *   readings then come from a replica within `DATABASE_READ_MAX_LAG_MS` (ReadReplicaRouter.readOnly);
 * - Node's default process metrics.
 * Queue, outbox and table series describe the whole deployment (every worker replica reports the same
 * values); the job counters and process metrics are this process's.
 */
@Injectable()
export class WorkerMetrics implements OnApplicationBootstrap {
  readonly registry = new Registry();
  private readonly logger = new Logger('WorkerMetrics');
  private queues: Queue[] = [];
  /** Readings of the scrape in progress, shared by its series (the outbox query feeds two gauges); cleared by {@link render}. */
  private readonly snapshots = new Map<string, Promise<unknown>>();
  private readonly collectErrors: Counter<'source'>;
  private readonly completed: Counter<'queue'>;
  private readonly failed: Counter<'queue'>;

  /** False when WORKER_METRICS_PORT is unset: nothing is collected (no process metrics, no job listeners). */
  readonly enabled: boolean;

  constructor(
    config: AppConfig,
    private readonly discovery: DiscoveryService,
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
    @Optional() private readonly readReplicas?: ReadReplicaRouter,
  ) {
    this.enabled = config.workerMetricsPort !== null;
    const registers = [this.registry];
    this.collectErrors = new Counter({ name: 'leadflow_metrics_collect_errors_total', help: 'Readings of a scrape that failed (PostgreSQL or Redis unreachable), by source.', labelNames: ['source'], registers });
    this.completed = new Counter({ name: 'leadflow_queue_jobs_completed_total', help: 'Jobs this worker process completed, by queue.', labelNames: ['queue'], registers });
    this.failed = new Counter({ name: 'leadflow_queue_jobs_failed_total', help: 'Job attempts that failed in this worker process (each retry counts), by queue.', labelNames: ['queue'], registers });
    this.gauge(
      'leadflow_queue_jobs',
      'Jobs in each BullMQ queue by state (waiting, prioritized, active, delayed, failed), read from Redis at scrape time.',
      ['queue', 'state'],
      async (gauge) => {
        const counts = await this.read('queues', () => Promise.all(this.queues.map(async (queue) => [queue.name, await queue.getJobCounts(...QUEUE_STATES)] as const)));
        for (const [queue, byState] of counts ?? []) for (const state of QUEUE_STATES) gauge.labels(queue, state).set(byState[state] ?? 0);
      },
    );
    const outbox = () => this.read<OutboxBacklog>('outbox', () => readOutboxBacklog(this.db, this.clock.now()));
    this.gauge('leadflow_outbox_backlog', 'Outbox events not yet relayed to their consumers (platform.outbox rows with relayed_at null).', [], async (gauge) => {
      const backlog = await outbox();
      if (backlog) gauge.set(backlog.backlog);
    });
    this.gauge(
      'leadflow_outbox_oldest_unrelayed_age_seconds',
      'Relay lag: age of the oldest outbox event not yet relayed, in seconds (0 when the outbox is drained).',
      [],
      async (gauge) => {
        const backlog = await outbox();
        if (backlog) gauge.set(backlog.oldestAgeSeconds);
      },
    );
    this.tableGauge('leadflow_webhook_attempts', 'Webhook delivery attempts recorded (webhooks.delivery_attempts), by outcome.', 'outcome', 'webhooks.delivery_attempts', WEBHOOK_ATTEMPT_OUTCOMES);
    this.tableGauge('leadflow_outgoing_emails', 'Outgoing emails (messaging.outgoing_emails) by delivery status.', 'status', 'messaging.outgoing_emails', EMAIL_STATUSES);
    this.tableGauge('leadflow_automation_executions', 'Automation executions (automations.executions) by status.', 'status', 'automations.executions', EXECUTION_STATUSES);
    if (this.enabled) collectDefaultMetrics({ register: this.registry });
    if (this.enabled && readReplicas) registerReadReplicaMetrics(this.registry, readReplicas);
  }

  /** Finds the BullMQ queues and processors of this process (every module is initialised by now) and counts job outcomes. */
  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    const queues = new Map<string, Queue>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.isDependencyTreeStatic() ? wrapper.instance : undefined;
      if (instance instanceof Queue && !queues.has(instance.name)) queues.set(instance.name, instance);
      if (instance instanceof WorkerHost) {
        let worker: Worker;
        try {
          worker = instance.worker;
        } catch {
          continue; // a processor whose worker was never created
        }
        this.completed.labels(worker.name).inc(0);
        this.failed.labels(worker.name).inc(0);
        worker.on('completed', () => this.completed.labels(worker.name).inc());
        worker.on('failed', () => this.failed.labels(worker.name).inc());
      }
    }
    this.queues = [...queues.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** A gauge read at scrape time: reset, then `fill` sets the series of this scrape (none when its reading failed). */
  private gauge<L extends string>(name: string, help: string, labelNames: L[], fill: (gauge: Gauge<L>) => Promise<void>): void {
    const gauge: Gauge<L> = new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect: async () => {
        gauge.reset();
        await fill(gauge);
      },
    });
  }

  /** A gauge of `SELECT <label>, count(*) FROM <table> GROUP BY <label>`, every `known` value present (0 when absent). */
  private tableGauge(name: string, help: string, label: string, table: string, known: string[]): void {
    const column = label === 'outcome' ? 'status' : label;
    this.gauge(name, help, [label], async (gauge) => {
      const rows = await this.read(name, () => this.db.query(`SELECT ${column} AS value, count(*)::int AS count FROM ${table} GROUP BY ${column}`) as Promise<{ value: string; count: number }[]>);
      if (!rows) return;
      const counts = new Map<string, number>(known.map((value) => [value, 0]));
      for (const row of rows) counts.set(row.value, row.count);
      for (const [value, count] of counts) gauge.labels(value).set(count);
    });
  }

  /** The Prometheus text of one scrape: every gauge reads PostgreSQL and Redis afresh. */
  async render(): Promise<string> {
    this.snapshots.clear();
    return this.registry.metrics();
  }

  /**
   * One reading shared by the series of a scrape; null when it failed (counted in
   * `leadflow_metrics_collect_errors_total{source}`, logged at most once a minute per source).
   */
  private async read<T>(source: string, load: () => Promise<T>): Promise<T | null> {
    let reading = this.snapshots.get(source) as Promise<T> | undefined;
    if (!reading) {
      // Aggregates may come from a read replica within DATABASE_READ_MAX_LAG_MS (docs/adr/0007).
      reading = this.readReplicas ? this.readReplicas.readOnly(load) : load();
      reading.catch((error: unknown) => {
        this.collectErrors.labels(source).inc();
        this.warn(source, error);
      });
      this.snapshots.set(source, reading);
    }
    return reading.catch(() => null);
  }

  private readonly warned = new Map<string, number>();

  private warn(source: string, error: unknown): void {
    if (Date.now() - (this.warned.get(source) ?? 0) < 60_000) return;
    this.warned.set(source, Date.now());
    this.logger.warn({ err: error, source }, 'Metrics reading failed');
  }
}

/**
 * `GET /metrics` of the worker on `WORKER_METRICS_PORT` (unset or empty: no listener), on HOST, plain
 * node:http: the Prometheus text of {@link WorkerMetrics}; with `METRICS_TOKEN` set, 401 without
 * `Authorization: Bearer <METRICS_TOKEN>` (constant-time comparison), and wrong or missing tokens limited like
 * the operator token's on the api, in one budget with the api's /metrics ({@link FailedAttempts.checkSecret}
 * `metrics_token`: from the 11th of a socket address within 10 minutes, 429 `rate_limit_exceeded` as a JSON
 * error envelope, `details` `{ limit_type: 'brute_force', retry_after_seconds }`, `Retry-After`; the right
 * token too). The address is the socket's: `X-Forwarded-For` is not read here. Anything else: 404; a method
 * other than GET or HEAD: 405. Listens once the worker is bootstrapped; closed on shutdown.
 */
@Injectable()
export class WorkerMetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WorkerMetrics');
  private readonly listener = new NodeHttpListener();

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: WorkerMetrics,
    private readonly failures: FailedAttempts,
  ) {}

  /** The listening port (differs from WORKER_METRICS_PORT only when that is 0), or null when not listening. */
  get port(): number | null {
    return this.listener.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.workerMetricsPort === null) return;
    await this.listener.listen(this.config.workerMetricsPort, this.config.host, (request, response) => this.handle(request, response));
    this.logger.log({ port: this.port, host: this.config.host }, 'Worker metrics listening');
  }

  onApplicationShutdown(): Promise<void> {
    return this.listener.close();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    const text = 'text/plain; charset=utf-8';
    if ((request.url ?? '/').split('?')[0] !== METRICS_PATH) return send(404, text, 'Not found: GET /metrics.\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, text, 'Method not allowed.\n', { allow: 'GET, HEAD' });
    if (this.config.metricsToken !== null) {
      const ip = request.socket.remoteAddress ?? 'unknown';
      const matches = metricsScrapeAllowed(request.headers.authorization, this.config.metricsToken);
      try {
        if (!(await this.failures.checkSecret('metrics_token', ip, matches))) {
          return send(401, text, METRICS_UNAUTHORIZED_BODY, { 'www-authenticate': METRICS_CHALLENGE });
        }
      } catch (error) {
        if (!(error instanceof DomainError)) {
          this.logger.error({ err: error }, 'Metrics token check failed');
          return send(500, text, 'Metrics token check failed.\n');
        }
        const rendered = renderDomainError(error, randomUUID(), this.config.publicBaseUrl);
        return send(rendered.status, 'application/json; charset=utf-8', JSON.stringify(rendered.body), rendered.headers);
      }
    }
    try {
      send(200, this.metrics.registry.contentType, await this.metrics.render());
    } catch (error) {
      this.logger.error({ err: error }, 'Metrics rendering failed');
      send(500, text, 'Metrics rendering failed.\n');
    }
  }
}

/** The worker's Prometheus listener (imported by `WorkerModule`); inert when WORKER_METRICS_PORT is unset. */
@Module({ imports: [DiscoveryModule], providers: [WorkerMetrics, WorkerMetricsServer] })
export class WorkerMetricsModule {}
