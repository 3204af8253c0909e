import { Injectable, Logger, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client, Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { PreparedStatementClient } from '../prepared-statement.client';
import { READ_CONTEXT, ReadContext, ReadDecision, ReadRouteReason } from './read-context';
import { parseLsn, PrimaryWalHistory } from './wal-position';
import { WrittenLsnStore } from './written-lsn.store';

/** State of one replica as `/health/ready` reports it. */
export interface ReplicaReport {
  /** `host:port/database` of its URL (no credentials). */
  replica: string;
  /** `ok`: serves reads; `lagging`: answers but lags past the bound; `down`: does not answer (or is not in recovery). */
  state: 'ok' | 'lagging' | 'down';
  /** Estimated lag (ms), null when unknown (down). */
  lag_ms: number | null;
  /** The last poll's error, when down. */
  error?: string;
}

/** Read counters and replica gauges, read by the metrics (registerReadReplicaMetrics). */
export interface ReadRoutingCounts {
  /** `<target>|<reason>` → connections handed out to read-only contexts. */
  reads: Map<string, number>;
}

type PgConnect = (callback?: (error: Error | undefined, client: PoolClient | undefined, release: (error?: Error | boolean) => void) => void) => Promise<PoolClient> | undefined;

/** How long a probe (a poller statement, or its connection) may take before the server counts as down (ms). */
const PROBE_TIMEOUT_MS = 1000;

class Replica {
  /** Connection of the poller (null while down: reopened on the next poll). */
  probe: Client | null = null;
  up = false;
  replayLsn = 0n;
  /** Estimated lag at the last poll (ms); null when unknown. */
  lagMs: number | null = null;
  /** When the last poll succeeded (ms since the epoch). */
  polledAt = 0;
  error: string | undefined = 'not polled yet';

  constructor(
    readonly index: number,
    readonly name: string,
    readonly url: string,
    readonly pool: Pool,
  ) {}
}

/**
 * Read replicas with read-your-writes (`DATABASE_READ_URLS`, docs/adr/0007). Inactive (`enabled` false,
 * nothing patched, polled or stored) when the variable is unset.
 *
 * When active, the DataSource's primary pool hands out a replica's connection instead of its own when,
 * and only when, the connection is taken in a read-only {@link ReadContext} (a GET/HEAD or
 * `@ReadOnlyRoute()` request once its writer is known, or {@link readOnly}) outside a unit of work, and a
 * replica is usable for that reader:
 * - it answered the poller within the last `max(3 polls, DATABASE_READ_MAX_LAG_MS)` and is in recovery;
 * - its lag (how long ago the primary was at its replay position, {@link PrimaryWalHistory}) is at most
 *   `DATABASE_READ_MAX_LAG_MS`;
 * - it has replayed the reader's last write: the primary's WAL position recorded after the writer's
 *   commits ({@link recordWrite}, {@link WrittenLsnStore}).
 * Otherwise the primary serves. The poller reads `pg_current_wal_lsn()` on the primary and
 * `pg_last_wal_replay_lsn()` on each replica every `DATABASE_READ_POLL_INTERVAL_MS` on connections of its
 * own, so a request never asks a replica where it is: the per-request cost is one Redis GET (the writer's
 * LSN), skipped when no replica is usable.
 */
@Injectable()
export class ReadReplicaRouter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReadReplicas');
  private readonly replicas: Replica[] = [];
  private readonly history: PrimaryWalHistory;
  private readonly counts = new Map<string, number>();
  private primaryProbe: Client | null = null;
  private primaryConnect: PgConnect | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private turn = 0;
  /** True when `DATABASE_READ_URLS` names at least one replica. */
  readonly enabled: boolean;
  readonly maxLagMs: number;
  readonly pollIntervalMs: number;

  constructor(
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() private readonly written?: WrittenLsnStore,
  ) {
    const settings = config.readReplicas ?? { urls: [], maxLagMs: 1000, pollIntervalMs: 200 };
    this.enabled = settings.urls.length > 0;
    this.maxLagMs = settings.maxLagMs;
    this.pollIntervalMs = settings.pollIntervalMs;
    this.history = new PrimaryWalHistory(Math.max(10_000, settings.maxLagMs * 4));
    const primaryOptions = (dataSource.options as { extra?: { max?: number; Client?: unknown } }).extra ?? {};
    settings.urls.forEach((url, index) => {
      const pool = new Pool({
        connectionString: url,
        max: primaryOptions.max ?? 10,
        connectionTimeoutMillis: PROBE_TIMEOUT_MS * 2,
        application_name: 'leadflow-read',
        // Same statement protocol as the primary's pool (prepared statements stay per connection).
        ...(primaryOptions.Client ? { Client: primaryOptions.Client as typeof PreparedStatementClient } : {}),
      });
      pool.on('error', () => undefined); // idle connections cut by a replica going away: the poller reports it
      this.replicas.push(new Replica(index, describe(url), url, pool));
    });
  }

  /** Patches the primary pool and starts the poller (nothing when inactive); waits for the first poll. */
  async onModuleInit(): Promise<void> {
    if (!this.enabled) return;
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    const primaryConnect = pool.connect.bind(pool) as PgConnect;
    this.primaryConnect = primaryConnect;
    pool.connect = ((callback?: Parameters<PgConnect>[0]) => {
      const context = READ_CONTEXT.getStore();
      if (!context || context.owner !== this || !context.readOnly) return primaryConnect(callback);
      const connected = this.connectForRead(context, primaryConnect);
      if (!callback) return connected;
      connected.then(
        (client) => callback(undefined, client, (error?: Error | boolean) => client.release(error)),
        (error: Error) => callback(error, undefined, () => undefined),
      );
      return undefined;
    }) as Pool['connect'];
    await this.poll();
    this.schedule();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all([
      this.primaryProbe?.end().catch(() => undefined),
      ...this.replicas.map(async (replica) => {
        await replica.probe?.end().catch(() => undefined);
        await replica.pool.end().catch(() => undefined);
      }),
    ]);
  }

  /**
   * Runs `work` in an anonymous read-only context (no writer, no own writes to wait for): its reads outside
   * a unit of work may go to a replica within the lag bound. For the worker's metric aggregates. Runs
   * `work` as is when inactive.
   */
  readOnly<T>(work: () => Promise<T>): Promise<T> {
    if (!this.enabled) return work();
    return READ_CONTEXT.run({ owner: this, readOnly: true, writer: () => null, anonymous: true, wrote: false }, work);
  }

  /**
   * Records, after `writer`'s commits, the primary's WAL position as the LSN its next reads must see:
   * `pg_current_wal_lsn()` (the WAL written so far: with `synchronous_commit` on, a commit returns once its
   * WAL is flushed, so this is past every commit record of the request), or `pg_current_wal_insert_lsn()`
   * when `synchronous_commit` is `off` (the commit record may not be written yet; the insert position is
   * past it). One statement on a primary connection and one Redis script; errors are logged (a reader whose
   * LSN Redis cannot give reads from the primary).
   */
  async recordWrite(writer: string): Promise<void> {
    if (!this.primaryConnect || !this.written) return;
    try {
      const client = (await this.primaryConnect()) as PoolClient;
      let lsn: string;
      try {
        const { rows } = await client.query<{ lsn: string }>(
          "SELECT (CASE WHEN current_setting('synchronous_commit') = 'off' THEN pg_current_wal_insert_lsn() ELSE pg_current_wal_lsn() END)::text AS lsn",
        );
        lsn = (rows[0] as { lsn: string }).lsn;
      } finally {
        client.release();
      }
      await this.written.record(writer, parseLsn(lsn));
    } catch (error) {
      this.logger.warn({ err: error, writer }, 'Could not record the write position for read-your-writes');
    }
  }

  /** One entry per replica, in `DATABASE_READ_URLS` order (empty when inactive). */
  report(): ReplicaReport[] {
    const now = Date.now();
    return this.replicas.map((replica) => {
      const state = this.stateOf(replica, now);
      return {
        replica: replica.name,
        state,
        lag_ms: state === 'down' || replica.lagMs === null ? null : Math.round(replica.lagMs),
        ...(state === 'down' && replica.error ? { error: replica.error } : {}),
      };
    });
  }

  /** Connections handed to read-only contexts so far, by `<target>|<reason>` (target `replica` or `primary`). */
  readCounts(): ReadonlyMap<string, number> {
    return this.counts;
  }

  /** Per replica: name, whether it serves (1/0) and its lag in seconds (null when unknown). */
  gauges(): { replica: string; up: number; lagSeconds: number | null }[] {
    const now = Date.now();
    return this.replicas.map((replica) => ({
      replica: replica.name,
      up: this.stateOf(replica, now) === 'down' ? 0 : 1,
      lagSeconds: replica.lagMs === null || this.stateOf(replica, now) === 'down' ? null : replica.lagMs / 1000,
    }));
  }

  private stateOf(replica: Replica, now: number): ReplicaReport['state'] {
    const fresh = now - replica.polledAt <= Math.max(this.pollIntervalMs * 3, this.maxLagMs);
    if (!replica.up || !fresh || replica.lagMs === null) return 'down';
    return replica.lagMs > this.maxLagMs ? 'lagging' : 'ok';
  }

  private async connectForRead(context: ReadContext, primaryConnect: PgConnect): Promise<PoolClient> {
    const writer = context.writer();
    if (writer === null && !context.anonymous) return primaryConnect() as Promise<PoolClient>; // key resolution, health, public pages
    context.decision ??= this.decide(writer);
    const decision = await context.decision;
    const replica = decision.replica === null ? undefined : this.replicas[decision.replica];
    if (!replica) {
      this.count('primary', decision.reason);
      return primaryConnect() as Promise<PoolClient>;
    }
    try {
      const client = await replica.pool.connect();
      this.count('replica', 'replica');
      return this.fallBackOnConnectionLoss(client, replica, primaryConnect);
    } catch (error) {
      this.markDown(replica, error);
      context.decision = Promise.resolve({ replica: null, reason: 'connect_error' });
      this.count('primary', 'connect_error');
      return primaryConnect() as Promise<PoolClient>;
    }
  }

  /**
   * A replica connection whose statements, if the connection is lost (the replica stopped or crashed, or a
   * recovery conflict cancelled the statement), run again on a primary connection: reads are repeatable,
   * so a replica going away costs no error. The replica is marked down and the lost connection is
   * destroyed on release (never returned to its pool). Callback and submittable forms pass through.
   */
  private fallBackOnConnectionLoss(client: PoolClient, replica: Replica, primaryConnect: PgConnect): PoolClient {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const release = client.release;
    let lost = false;
    const patched = client as unknown as { query: unknown; release: unknown };
    patched.query = (...args: unknown[]) => {
      const first = args[0] as { submit?: unknown } | undefined;
      if (typeof args[args.length - 1] === 'function' || typeof first?.submit === 'function') return query(...args);
      return (query(...args) as Promise<unknown>).catch(async (error: unknown) => {
        if (!isConnectionLoss(error)) throw error;
        lost = true;
        this.markDown(replica, error);
        this.count('primary', 'connect_error');
        const primary = (await primaryConnect()) as PoolClient;
        try {
          return await (primary.query as (...args: unknown[]) => Promise<unknown>)(...args);
        } finally {
          primary.release();
        }
      });
    };
    patched.release = (error?: Error | boolean) => {
      delete patched.query; // back to the prototype's query for the pool's next checkout
      patched.release = release;
      return release.call(client, lost ? true : error);
    };
    return client;
  }

  private async decide(writer: string | null): Promise<ReadDecision> {
    const now = Date.now();
    const states = this.replicas.map((replica) => this.stateOf(replica, now));
    const usable = this.replicas.filter((_, index) => states[index] === 'ok');
    if (usable.length === 0) return { replica: null, reason: states.includes('lagging') ? 'lag' : 'down' };
    let required = 0n;
    if (writer !== null) {
      const seen = this.written ? await this.written.mustHaveSeen(writer) : undefined;
      if (seen === undefined) return { replica: null, reason: 'unknown_lsn' };
      required = seen;
    }
    const caughtUp = usable.filter((replica) => replica.replayLsn >= required);
    if (caughtUp.length === 0) return { replica: null, reason: 'own_write' };
    this.turn = (this.turn + 1) % caughtUp.length;
    return { replica: (caughtUp[this.turn] as Replica).index, reason: 'replica' };
  }

  private count(target: 'replica' | 'primary', reason: ReadRouteReason): void {
    const key = `${target}|${reason}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.poll().finally(() => this.schedule());
    }, this.pollIntervalMs);
    this.timer.unref();
  }

  /** One poll: the primary's WAL position, then every replica's replay position (in parallel). Never throws. */
  private async poll(): Promise<void> {
    try {
      this.primaryProbe ??= await openProbe(this.config.databaseUrl);
      const { rows } = await this.primaryProbe.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      this.history.record(Date.now(), parseLsn((rows[0] as { lsn: string }).lsn));
    } catch {
      // The primary's position is unknown: lags are computed from the older samples (and grow).
      await this.primaryProbe?.end().catch(() => undefined);
      this.primaryProbe = null;
    }
    await Promise.all(this.replicas.map((replica) => this.pollReplica(replica)));
  }

  private async pollReplica(replica: Replica): Promise<void> {
    try {
      replica.probe ??= await openProbe(replica.url);
      const { rows } = await replica.probe.query<{ recovery: boolean; replay: string | null }>(
        'SELECT pg_is_in_recovery() AS recovery, pg_last_wal_replay_lsn()::text AS replay',
      );
      const row = rows[0] as { recovery: boolean; replay: string | null };
      if (!row.recovery || row.replay === null) throw new Error('not a streaming replica (pg_is_in_recovery() is false)');
      const at = Date.now();
      replica.replayLsn = parseLsn(row.replay);
      replica.lagMs = this.history.lagMs(replica.replayLsn, at);
      replica.polledAt = at;
      if (!replica.up) this.logger.log({ replica: replica.name }, 'Read replica serving');
      replica.up = true;
      replica.error = undefined;
    } catch (error) {
      this.markDown(replica, error);
    }
  }

  private markDown(replica: Replica, error: unknown): void {
    if (replica.up) this.logger.warn({ replica: replica.name, err: error }, 'Read replica down: the primary serves its reads');
    replica.up = false;
    replica.lagMs = null;
    replica.error = error instanceof Error ? error.message : String(error);
    const probe = replica.probe;
    replica.probe = null;
    void probe?.end().catch(() => undefined);
  }
}

/**
 * True for an error that says the connection (not the statement) failed: a Node socket error, pg's
 * "Connection terminated" / "not queryable", SQLSTATE class 08, 57P01–57P03 (the server shuts down), or
 * 40001 on a standby (a statement cancelled by a recovery conflict).
 */
function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return /^E[A-Z]+$/.test(code) || code.startsWith('08') || ['57P01', '57P02', '57P03', '40001'].includes(code);
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|not queryable|connection error/i.test(message);
}

/** A dedicated connection for the poller, with short connect and statement timeouts. */
async function openProbe(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS, application_name: 'leadflow-read-poller' });
  client.on('error', () => undefined); // reported by the next query's failure
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}

/** `host:port/database` of a PostgreSQL URL (credentials left out). */
function describe(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}
