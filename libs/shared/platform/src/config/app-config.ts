import { isIP } from 'node:net';
import { z } from 'zod';
import { boolean, ConfigError, integer, oneOf, optionalPort, optionalText, optionalUrl, read, text, url } from './env-schema';
import { parseClusterNodes, RedisTopology } from '../redis/redis-topology';

export { ConfigError } from './env-schema';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/leadflow';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379/0';
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
/** Development default of SECRET_ENCRYPTION_KEY, never used in production. */
const DEVELOPMENT_KEY = Buffer.alloc(32, 7);
/** Names proxy-addr (Fastify's trustProxy) accepts besides addresses and CIDR ranges. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** SECRET_ENCRYPTION_KEY: 32 bytes, 64 hex digits or base64; empty means unset (development key; required in production). */
function secretKey(nodeEnv: string) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') {
        if (nodeEnv !== 'production') return DEVELOPMENT_KEY;
        ctx.addIssue({ code: 'custom', message: '32 bytes, hex or base64 (required when NODE_ENV=production)' });
        return z.NEVER;
      }
      const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : /^[A-Za-z0-9+/]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : Buffer.alloc(0);
      if (key.length !== 32) {
        ctx.addIssue({ code: 'custom', message: '32 bytes, hex or base64' });
        return z.NEVER;
      }
      return key;
    });
}

/** DATABASE_READ_URLS: comma-separated `postgres://` or `postgresql://` URLs; empty means unset (no replica). */
function postgresUrlList() {
  const valid = (entry: string): boolean => URL.canParse(entry) && ['postgres:', 'postgresql:'].includes(new URL(entry).protocol);
  return z
    .string()
    .optional()
    .transform((raw, ctx): string[] => {
      const entries = (raw ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
      if (!entries.every(valid)) {
        ctx.addIssue({ code: 'custom', message: 'comma-separated URLs starting with postgres:// or postgresql://' });
        return z.NEVER;
      }
      return entries;
    });
}

/** TRUST_PROXY: comma-separated addresses, CIDR ranges or proxy-addr names; empty means unset (false). */
function proxyList() {
  const valid = (entry: string): boolean => {
    if (PROXY_NAMES.has(entry)) return true;
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    if (family === 0 || extra !== undefined) return false;
    if (prefix === undefined) return true;
    return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
  };
  return z
    .string()
    .optional()
    .transform((raw, ctx): string[] | false => {
      const entries = (raw ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
      if (!entries.every(valid)) {
        ctx.addIssue({ code: 'custom', message: 'comma-separated IP addresses or CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8)' });
        return z.NEVER;
      }
      return entries.length > 0 ? entries : false;
    });
}

/**
 * Runtime settings read once from the environment (operator-api.md › Runtime contract).
 * Every default here is the documented one; tests build an AppConfig with overrides.
 */
export class AppConfig {
  /** PostgreSQL URL; the database is created when missing. */
  readonly databaseUrl: string;
  /** Redis URL of the quota counters and BullMQ queues. */
  readonly redisUrl: string;
  /** Prefix of every Redis key and BullMQ queue (tests give each file its own). */
  readonly redisPrefix: string;
  /**
   * Where Redis lives: `REDIS_CLUSTER_NODES` (comma-separated `host:port` seeds, a Redis Cluster reached
   * through ioredis `Cluster`; `REDIS_URL` is then not used) or else `REDIS_URL` (docs/adr/0006).
   */
  readonly redisTopology: RedisTopology;
  readonly port: number;
  /** Interface the api (and the worker's probes) listen on. */
  readonly host: string;
  /** Worker: port of the liveness/readiness listener (`WORKER_HEALTH_PORT`, 0..65535, 0 = any); null (unset or empty): none. */
  readonly workerHealthPort: number | null;
  /**
   * Worker: port of the Prometheus listener (`WORKER_METRICS_PORT`, 0..65535, 0 = any) serving `GET /metrics`;
   * null (unset or empty): none. Must differ from `WORKER_HEALTH_PORT` (two listeners).
   */
  readonly workerMetricsPort: number | null;
  /**
   * Bearer token of `GET /metrics` on the api and the worker (`METRICS_TOKEN`); null (unset or empty): open,
   * for a scraper on a private network. Compared in constant time.
   */
  readonly metricsToken: string | null;
  /**
   * Api processes of this deployment (`API_PROCESSES`, 1..1024, default 1 for an app run alone; `npm start`
   * passes its count to every process it starts). While Redis is down each api process admits
   * `floor(limit / apiProcesses)` (at least 1) of every limit, so together they never admit more than it.
   */
  readonly apiProcesses: number;
  /**
   * `DATABASE_PREPARED_STATEMENTS`: `true` or `false` when set; null when unset (the default: prepared statements
   * unless a pooler that drops them is found at start-up, see `resolvePreparedStatements`).
   */
  readonly databasePreparedStatements: boolean | null;
  /**
   * Read replicas (docs/adr/0007): `DATABASE_READ_URLS` (comma-separated PostgreSQL URLs of streaming
   * replicas of `DATABASE_URL`; empty or unset: none, every read on the primary), the lag past which a
   * replica is skipped (`DATABASE_READ_MAX_LAG_MS`, ms, default 1000, at most 60000) and how often each
   * replica's replay position is polled (`DATABASE_READ_POLL_INTERVAL_MS`, ms, default 200, 10..10000).
   */
  readonly readReplicas: { urls: string[]; maxLagMs: number; pollIntervalMs: number };
  /** Operator API bearer token; null disables `/admin` (404 on every path). */
  readonly adminToken: string | null;
  /** Base URL used in links (`doc_url`, `Link` headers, quote pages), without trailing slash. */
  readonly publicBaseUrl: string;
  readonly smtpUrl: string | null;
  readonly webhookAllowPrivateTargets: boolean;
  readonly webhookCaFile: string | null;
  /** 32-byte key for secrets at rest. */
  readonly secretEncryptionKey: Buffer;
  readonly nodeEnv: string;
  /** Default `rate_limits.per_hour` of a key created without one (requests per hour). */
  readonly defaultKeyPerHour: number;
  /** Level of the JSON logs (`silent` in tests). */
  readonly logLevel: string;
  /** Pause between two polls of `platform.outbox` by the worker's relay when it is idle (milliseconds). */
  readonly outboxRelayIntervalMs: number;
  /** Outbox rows the relay locks and enqueues per transaction. */
  readonly outboxRelayBatchSize: number;
  /**
   * Worker, outbox reconciler (milliseconds): pause between passes (`OUTBOX_RECONCILE_INTERVAL_MS`,
   * default 10000; a pass that finds Redis's data lost re-enqueues the unrecorded events relayed before the
   * loss at once) and how long after its relay (or its last re-enqueue) an event some consumer has not
   * recorded in `platform.event_inbox` is re-enqueued otherwise (`OUTBOX_RECONCILE_GRACE_MS`, 300000).
   */
  readonly outboxReconcile: { intervalMs: number; graceMs: number };
  /** How long a `processing` Idempotency-Key is held before another request may take it over (milliseconds). */
  readonly idempotencyLeaseMs: number;
  /** Worker: base delay of the exponential backoff between delivery attempts of an outgoing email (milliseconds). */
  readonly emailRetryDelayMs: number;
  /**
   * Addresses or CIDR ranges of reverse proxies whose `X-Forwarded-For` is believed (`TRUST_PROXY`,
   * comma-separated, e.g. `127.0.0.1,10.0.0.0/8`); `false` when unset: the client address is the
   * socket's. Per-IP limits (lead capture, events) and brute-force counting use the resulting address.
   */
  readonly trustProxy: string[] | false;
  /**
   * Worker, automation engine (milliseconds unless said): lease of a running execution
   * (`AUTOMATION_LEASE_MS`, default 60000), pause between sweeps for stale executions
   * (`AUTOMATION_SWEEP_INTERVAL_MS`, 15000), grace before a pending or overdue waiting execution is queued
   * again (`AUTOMATION_STALE_GRACE_MS`, 60000), restarts before `failed` (`AUTOMATION_MAX_RETRIES`, 5).
   */
  readonly automationEngine: { leaseMs: number; sweepIntervalMs: number; staleGraceMs: number; maxRetries: number };
  /**
   * Worker, webhook deliveries (milliseconds): base of the retry schedule (`WEBHOOK_RETRY_BASE_MS`, default
   * 120000: waits 2 min × 2^(n−1), 12 attempts over ≈ 2.8 days), claim lease of an attempt in progress
   * (`WEBHOOK_LEASE_MS`, 15000: the 10 s timeout plus 5 s; a dead worker's leases are taken over before that, see `workerLeases`), pause between sweeps for deliveries whose job
   * was lost (`WEBHOOK_SWEEP_INTERVAL_MS`, 30000), age past `next_attempt_at` before the sweeper re-enqueues
   * (`WEBHOOK_SWEEP_GRACE_MS`, 60000).
   */
  readonly webhookDelivery: { retryBaseMs: number; leaseMs: number; sweepIntervalMs: number; sweepGraceMs: number };
  /**
   * Worker identity and lease takeover (milliseconds, docs/adr/0004): heartbeat of every worker in
   * `platform.workers` (`WORKER_HEARTBEAT_INTERVAL_MS`, default 1000), silence after which a worker on
   * another machine counts as dead and its leases are taken over (`WORKER_HEARTBEAT_TIMEOUT_MS`, 10000; a
   * dead worker of the same machine is known at once by its pid).
   */
  readonly workerLeases: { heartbeatIntervalMs: number; heartbeatTimeoutMs: number };

  /**
   * Reads and validates every variable of the README's "Environment variables" table (env-schema.ts, zod).
   * @throws ConfigError listing every bad variable, one line each (`PORT=abc: expected an integer between 1 and 65535`).
   */
  constructor(private readonly env: Record<string, string | undefined> = process.env) {
    const problems: string[] = [];
    const get = <T>(name: string, schema: Parameters<typeof read<T>>[2], fallback: T, secret = false): T => read(env, name, schema, problems, fallback, secret);
    const ms = (name: string, defaultValue: number, min = 1): number => get(name, integer(defaultValue, min), defaultValue);

    this.databaseUrl = get('DATABASE_URL', url(['postgres:', 'postgresql:'], DEFAULT_DATABASE_URL), DEFAULT_DATABASE_URL, true);
    this.redisUrl = get('REDIS_URL', url(['redis:', 'rediss:'], DEFAULT_REDIS_URL), DEFAULT_REDIS_URL, true);
    this.redisPrefix = get('REDIS_PREFIX', text('leadflow'), 'leadflow');
    const clusterNodes = env.REDIS_CLUSTER_NODES?.trim() ? parseClusterNodes(env.REDIS_CLUSTER_NODES) : null;
    if (typeof clusterNodes === 'string') problems.push(clusterNodes);
    if (clusterNodes && /[{}]/.test(this.redisPrefix)) {
      // Each queue gets its own hash tag {<prefix>:<queue>}; a tag in the prefix would pin every key to one slot.
      problems.push(`REDIS_PREFIX=${JSON.stringify(this.redisPrefix)}: expected no '{' or '}' with REDIS_CLUSTER_NODES (every queue gets its own hash tag {<prefix>:<queue>}; a tagged prefix puts all queues in one slot)`);
    }
    this.redisTopology =
      clusterNodes && typeof clusterNodes !== 'string'
        ? { mode: 'cluster', nodes: clusterNodes.nodes, tls: clusterNodes.tls, username: clusterNodes.username, password: clusterNodes.password }
        : { mode: 'single', url: this.redisUrl };
    this.port = get('PORT', integer(3000, 1, 65_535), 3000);
    this.host = get('HOST', text('127.0.0.1'), '127.0.0.1');
    this.workerHealthPort = get('WORKER_HEALTH_PORT', optionalPort(), null);
    this.workerMetricsPort = get('WORKER_METRICS_PORT', optionalPort(), null);
    if (this.workerMetricsPort !== null && this.workerMetricsPort !== 0 && this.workerMetricsPort === this.workerHealthPort) {
      problems.push(`WORKER_METRICS_PORT=${this.workerMetricsPort}: expected a port other than WORKER_HEALTH_PORT's (two listeners)`);
    }
    this.metricsToken = get('METRICS_TOKEN', optionalText(), null, true);
    this.adminToken = get('ADMIN_TOKEN', optionalText(), null);
    const defaultBaseUrl = `http://127.0.0.1:${this.port}`;
    this.publicBaseUrl = get('PUBLIC_BASE_URL', url(['http:', 'https:'], defaultBaseUrl), defaultBaseUrl).replace(/\/+$/, '');
    this.smtpUrl = get('SMTP_URL', optionalUrl(['smtp:', 'smtps:']), null, true);
    this.webhookAllowPrivateTargets = get('WEBHOOK_ALLOW_PRIVATE_TARGETS', boolean(false), false);
    this.webhookCaFile = get('WEBHOOK_CA_FILE', optionalText(), null);
    this.nodeEnv = get('NODE_ENV', oneOf(['development', 'production', 'test'], 'development'), 'development');
    this.secretEncryptionKey = get('SECRET_ENCRYPTION_KEY', secretKey(this.nodeEnv), DEVELOPMENT_KEY, true);
    this.defaultKeyPerHour = get('DEFAULT_KEY_PER_HOUR', integer(1000, 1), 1000);
    const defaultLevel = this.nodeEnv === 'test' ? 'silent' : 'info';
    this.logLevel = get('LOG_LEVEL', oneOf(LOG_LEVELS, defaultLevel), defaultLevel);
    this.outboxRelayIntervalMs = ms('OUTBOX_RELAY_INTERVAL_MS', 500);
    this.outboxRelayBatchSize = get('OUTBOX_RELAY_BATCH_SIZE', integer(100, 1, 10_000), 100);
    this.outboxReconcile = {
      intervalMs: ms('OUTBOX_RECONCILE_INTERVAL_MS', 10_000),
      graceMs: ms('OUTBOX_RECONCILE_GRACE_MS', 300_000, 0),
    };
    this.emailRetryDelayMs = ms('EMAIL_RETRY_DELAY_MS', 30_000);
    this.idempotencyLeaseMs = ms('IDEMPOTENCY_LEASE_MS', 60_000);
    this.trustProxy = get('TRUST_PROXY', proxyList(), false);
    this.automationEngine = {
      leaseMs: ms('AUTOMATION_LEASE_MS', 60_000),
      sweepIntervalMs: ms('AUTOMATION_SWEEP_INTERVAL_MS', 15_000),
      staleGraceMs: ms('AUTOMATION_STALE_GRACE_MS', 60_000, 0),
      maxRetries: get('AUTOMATION_MAX_RETRIES', integer(5, 0, 1000), 5),
    };
    this.webhookDelivery = {
      retryBaseMs: ms('WEBHOOK_RETRY_BASE_MS', 120_000),
      leaseMs: ms('WEBHOOK_LEASE_MS', 15_000),
      sweepIntervalMs: ms('WEBHOOK_SWEEP_INTERVAL_MS', 30_000),
      sweepGraceMs: ms('WEBHOOK_SWEEP_GRACE_MS', 60_000, 0),
    };
    this.workerLeases = {
      heartbeatIntervalMs: ms('WORKER_HEARTBEAT_INTERVAL_MS', 1000),
      heartbeatTimeoutMs: ms('WORKER_HEARTBEAT_TIMEOUT_MS', 10_000),
    };
    // Read elsewhere (prepare.ts, data-source.factory.ts, start.mjs) but checked here, so `npm start` stops on them too.
    get('SEED_DEMO', boolean(true), true);
    get('DATABASE_POOL_SIZE', integer(10, 1, 1000), 10);
    const preparedStatements = get('DATABASE_PREPARED_STATEMENTS', boolean(true), true);
    this.databasePreparedStatements = env.DATABASE_PREPARED_STATEMENTS === undefined ? null : preparedStatements;
    this.readReplicas = {
      urls: get('DATABASE_READ_URLS', postgresUrlList(), [], true),
      maxLagMs: get('DATABASE_READ_MAX_LAG_MS', integer(1000, 1, 60_000), 1000),
      pollIntervalMs: get('DATABASE_READ_POLL_INTERVAL_MS', integer(200, 10, 10_000), 200),
    };
    ms('STOP_TIMEOUT_MS', 30_000);
    ms('READY_TIMEOUT_MS', 120_000);
    this.apiProcesses = get('API_PROCESSES', integer(1, 1, 1024), 1);
    get('WORKER_NICE', integer(10, 0, 19), 10);
    if (problems.length > 0) throw new ConfigError(problems);
  }

  /** Returns a copy built from the same environment with some settings replaced. */
  with(overrides: Record<string, string | undefined>): AppConfig {
    return new AppConfig({ ...this.env, ...overrides });
  }
}
