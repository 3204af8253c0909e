import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { Poller } from '../scheduling/poller';
import { processExists, WorkerIdentity } from './worker-identity';

/**
 * Takes over the leases the given dead workers held (their ids, `platform.workers.id`): makes the leased
 * work runnable again and queues it. Resolves with how many leases it took over; throws to be called
 * again on the next heartbeat (the dead workers stay listed until every takeover succeeded).
 */
export type LeaseTakeover = (deadWorkerIds: string[]) => Promise<number>;

/** Tuning of {@link WorkerLeases}; `AppConfig.workerLeases` gives the defaults. */
export interface WorkerLeasesSettings {
  /** Pause between heartbeats (ms). */
  heartbeatIntervalMs: number;
  /** A worker of another machine silent this long counts as dead (ms). */
  heartbeatTimeoutMs: number;
  /** Longest wait for one takeover before it counts as failed (ms; Redis down: the next heartbeat tries again). */
  takeoverTimeoutMs: number;
  /** Start heartbeating when the application boots (the worker). */
  autoStart: boolean;
}

export const WORKER_LEASES_SETTINGS = Symbol('WORKER_LEASES_SETTINGS');

interface WorkerRow {
  id: string;
  host: string;
  pid: number;
  silent: boolean;
}

/**
 * Worker liveness and lease takeover (docs/adr/0004, README "Growing past one machine"). Every worker
 * keeps a row in `platform.workers` and refreshes its `heartbeat_at` every `heartbeatIntervalMs`; each
 * heartbeat also looks at the other rows. A worker is dead when
 * - it ran on this machine and PID namespace (same `host`) and its pid is gone or is now ours: known at
 *   once, so a worker restarted by `npm start` after a `kill -9` takes over at its first heartbeat;
 * - or its heartbeat is older than `heartbeatTimeoutMs` (another machine), judged only once this worker's
 *   own heartbeats have succeeded for that long (after a PostgreSQL outage every row is old).
 * Then every registered {@link LeaseTakeover} runs with the dead ids (outside the heartbeat, one at a
 * time, each within `takeoverTimeoutMs`), and once all succeeded the rows are deleted. A worker wrongly
 * judged dead (stalled longer than the timeout) loses its leases: the work may run twice, which the
 * lease owners allow (at-least-once; receivers deduplicate). A stopped worker keeps its row until a peer
 * finds it silent, so leases still held while it drained are never taken early.
 */
@Injectable()
export class WorkerLeases implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WorkerLeases.name);
  private readonly settings: WorkerLeasesSettings;
  private readonly takeovers = new Map<string, LeaseTakeover>();
  private readonly poller: Poller;
  /** When this worker's heartbeats started succeeding without a failure since (ms since the epoch), null after a failure. */
  private healthySince: number | null = null;
  private takingOver: Promise<void> | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    readonly identity: WorkerIdentity,
    config: AppConfig,
    @Optional() @Inject(WORKER_LEASES_SETTINGS) settings: Partial<WorkerLeasesSettings> | null = null,
  ) {
    this.settings = { ...config.workerLeases, takeoverTimeoutMs: 5000, autoStart: true, ...(settings ?? {}) };
    this.poller = new Poller({
      name: 'Worker heartbeat',
      intervalMs: this.settings.heartbeatIntervalMs,
      initialDelayMs: 0,
      pass: async () => void (await this.heartbeat()),
      onError: (error) => {
        this.healthySince = null;
        this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Worker heartbeat failed; will retry');
      },
    });
  }

  /** Registers the takeover of one kind of lease (`name` for the logs: `webhook deliveries`…); call before the application boots. */
  onTakeover(name: string, takeover: LeaseTakeover): void {
    this.takeovers.set(name, takeover);
  }

  onApplicationBootstrap(): void {
    if (this.settings.autoStart) this.poller.start();
  }

  /** Stops heartbeating and waits for a takeover in progress; the row stays (see the class doc). */
  async onModuleDestroy(): Promise<void> {
    await this.poller.stop();
    await this.takingOver;
  }

  /**
   * One heartbeat: upserts this worker's row, then lists the dead workers and starts their takeover
   * (not awaited; one at a time). Answers the dead ids found. Throws when PostgreSQL fails.
   */
  async heartbeat(): Promise<string[]> {
    const { id, host, pid } = this.identity;
    await this.db.query(
      `INSERT INTO platform.workers (id, host, pid) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
      [id, host, pid],
    );
    this.healthySince ??= Date.now();
    const others: WorkerRow[] = await this.db.query(
      `SELECT id, host, pid, heartbeat_at < now() - ($2 * interval '1 millisecond') AS silent FROM platform.workers WHERE id <> $1`,
      [id, this.settings.heartbeatTimeoutMs],
    );
    const judgeSilence = Date.now() - this.healthySince >= this.settings.heartbeatTimeoutMs;
    const dead = others.filter((other) => (other.host === host && (other.pid === pid || !processExists(other.pid))) || (other.silent && judgeSilence));
    if (dead.length > 0 && this.takingOver === null) {
      this.takingOver = this.takeOver(dead).finally(() => (this.takingOver = null));
    }
    return dead.map((worker) => worker.id);
  }

  /** Runs every takeover for `dead`, then forgets the workers if all succeeded. Never throws (logged). */
  private async takeOver(dead: WorkerRow[]): Promise<void> {
    const ids = dead.map((worker) => worker.id);
    const taken: Record<string, number> = {};
    let failed = false;
    for (const [name, takeover] of this.takeovers) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`not done within ${this.settings.takeoverTimeoutMs} ms`)), this.settings.takeoverTimeoutMs);
      });
      try {
        taken[name] = await Promise.race([takeover(ids), timeout]);
      } catch (error) {
        failed = true;
        this.logger.warn({ lease: name, workers: ids, err: error instanceof Error ? error.message : String(error) }, 'Lease takeover failed; will retry');
      } finally {
        clearTimeout(timer);
      }
    }
    if (failed) return;
    await this.db.query(`DELETE FROM platform.workers WHERE id = ANY($1::uuid[])`, [ids]).catch(() => undefined);
    this.logger.warn({ workers: dead.map((worker) => ({ id: worker.id, host: worker.host, pid: worker.pid })), leases: taken }, 'Leases of dead workers taken over');
  }
}
