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
  readonly port: number;
  readonly host: string;
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
   * default 30000) and how long after its relay (or its last re-enqueue) an event some consumer has not
   * recorded in `platform.event_inbox` is re-enqueued (`OUTBOX_RECONCILE_GRACE_MS`, 300000).
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
   * (`WEBHOOK_LEASE_MS`, 30000; longer than the 10 s timeout), pause between sweeps for deliveries whose job
   * was lost (`WEBHOOK_SWEEP_INTERVAL_MS`, 30000), age past `next_attempt_at` before the sweeper re-enqueues
   * (`WEBHOOK_SWEEP_GRACE_MS`, 60000).
   */
  readonly webhookDelivery: { retryBaseMs: number; leaseMs: number; sweepIntervalMs: number; sweepGraceMs: number };

  constructor(private readonly env: Record<string, string | undefined> = process.env) {
    this.databaseUrl = env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/leadflow';
    this.redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
    this.redisPrefix = env.REDIS_PREFIX ?? 'leadflow';
    this.port = Number(env.PORT ?? 3000);
    this.host = env.HOST ?? '127.0.0.1';
    this.adminToken = env.ADMIN_TOKEN && env.ADMIN_TOKEN.length > 0 ? env.ADMIN_TOKEN : null;
    this.publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${this.port}`).replace(/\/+$/, '');
    this.smtpUrl = env.SMTP_URL && env.SMTP_URL.length > 0 ? env.SMTP_URL : null;
    this.webhookAllowPrivateTargets = env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true';
    this.webhookCaFile = env.WEBHOOK_CA_FILE && env.WEBHOOK_CA_FILE.length > 0 ? env.WEBHOOK_CA_FILE : null;
    this.nodeEnv = env.NODE_ENV ?? 'development';
    this.secretEncryptionKey = AppConfig.readSecretKey(env.SECRET_ENCRYPTION_KEY, this.nodeEnv);
    this.defaultKeyPerHour = Number(env.DEFAULT_KEY_PER_HOUR ?? 1000);
    this.logLevel = env.LOG_LEVEL ?? (this.nodeEnv === 'test' ? 'silent' : 'info');
    this.outboxRelayIntervalMs = Number(env.OUTBOX_RELAY_INTERVAL_MS ?? 500);
    this.outboxRelayBatchSize = Number(env.OUTBOX_RELAY_BATCH_SIZE ?? 100);
    this.outboxReconcile = {
      intervalMs: Number(env.OUTBOX_RECONCILE_INTERVAL_MS ?? 30_000),
      graceMs: Number(env.OUTBOX_RECONCILE_GRACE_MS ?? 300_000),
    };
    this.emailRetryDelayMs = Number(env.EMAIL_RETRY_DELAY_MS ?? 30_000);
    this.idempotencyLeaseMs = Number(env.IDEMPOTENCY_LEASE_MS ?? 60_000);
    const trusted = (env.TRUST_PROXY ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
    this.trustProxy = trusted.length > 0 ? trusted : false;
    this.automationEngine = {
      leaseMs: Number(env.AUTOMATION_LEASE_MS ?? 60_000),
      sweepIntervalMs: Number(env.AUTOMATION_SWEEP_INTERVAL_MS ?? 15_000),
      staleGraceMs: Number(env.AUTOMATION_STALE_GRACE_MS ?? 60_000),
      maxRetries: Number(env.AUTOMATION_MAX_RETRIES ?? 5),
    };
    this.webhookDelivery = {
      retryBaseMs: Number(env.WEBHOOK_RETRY_BASE_MS ?? 120_000),
      leaseMs: Number(env.WEBHOOK_LEASE_MS ?? 30_000),
      sweepIntervalMs: Number(env.WEBHOOK_SWEEP_INTERVAL_MS ?? 30_000),
      sweepGraceMs: Number(env.WEBHOOK_SWEEP_GRACE_MS ?? 60_000),
    };
  }

  /** Returns a copy built from the same environment with some settings replaced. */
  with(overrides: Record<string, string | undefined>): AppConfig {
    return new AppConfig({ ...this.env, ...overrides });
  }

  private static readSecretKey(raw: string | undefined, nodeEnv: string): Buffer {
    if (!raw) {
      if (nodeEnv === 'production') throw new Error('SECRET_ENCRYPTION_KEY is required when NODE_ENV=production');
      return Buffer.alloc(32, 7); // development default, never used in production
    }
    const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32) throw new Error('SECRET_ENCRYPTION_KEY must be 32 bytes, hex or base64');
    return key;
  }
}
