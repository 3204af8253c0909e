import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig } from '../config/app-config';
import { Poller } from '../scheduling/poller';
import { ConsumerBatch, OutboxRelay, OutboxRow } from './outbox-relay';
import { OutboxSubscriptions } from './outbox-subscriptions';

/** Tuning of the reconciler; `AppConfig.outboxReconcile` gives the interval and the grace. */
export interface OutboxReconcilerSettings {
  /** Pause between passes (ms). */
  intervalMs: number;
  /** An event is re-enqueued this long after its relay, or after its last re-enqueue (ms). */
  graceMs: number;
  /** Outbox rows read per query. */
  chunkSize: number;
  /** Re-enqueues of one event before the reconciler gives up on it (logged as an error). */
  maxAttempts: number;
  /** Start when the application boots (the worker). */
  autoStart: boolean;
  /** Inbox rows older than this are deleted by each pass (ms); by then their events are long reconciled. */
  inboxRetentionMs: number;
}

export const OUTBOX_RECONCILER_SETTINGS = Symbol('OUTBOX_RECONCILER_SETTINGS');

/** What one pass did: rows checked, events re-enqueued (with their consumers), the watermark after it. */
export interface ReconcilePass {
  checked: number;
  requeued: { eventId: string; consumers: string[] }[];
  abandoned: string[];
  watermark: string;
  /** False when another worker held the reconciler's lock (nothing was done). */
  ran: boolean;
  /** Set when this pass found Redis's data lost: unrecorded events relayed before this time were due at once. */
  redisLostBefore?: Date;
}

interface ReconciliationState {
  sequence: string;
  redis_marker: string | null;
  redis_seen_at: Date | null;
  lost_before: Date | null;
}

/** Margin added to the restart time Redis reports (whole seconds; clocks of two machines) (ms). */
const REDIS_RESTART_MARGIN_MS = 2000;

interface ReconcileRow extends OutboxRow {
  relayed_at: Date | null;
  reconciled_at: Date | null;
  reconcile_attempts: number;
}

/** Advisory lock key: one reconciler pass at a time across workers. */
const RECONCILER_LOCK = 0x6c66_7278; // "lfrx"

/**
 * Finds outbox events that some subscribed consumer never recorded in `platform.event_inbox` and puts
 * them back in that consumer's queue (issue 12 item 2: Redis restarted empty, a batch job failed for
 * good, a job was evicted). Runs in the worker every `intervalMs`.
 *
 * It walks `platform.outbox` in sequence order from a watermark (`platform.outbox_reconciliation`):
 * a relayed row older than `graceMs` whose consumers have all recorded it moves the watermark past it;
 * a row missing some consumer's record is re-enqueued for those consumers (job id `r-<consumer>.…`),
 * stamped `reconciled_at`, and holds the watermark until it is recorded or has been re-enqueued
 * `maxAttempts` times (then it is logged and left behind). A row not yet relayed, or relayed within the
 * grace, stops the walk. One worker at a time (transaction-scoped advisory lock). Duplicates it may
 * cause (an event that was only slow) are absorbed by the inbox. Each pass also deletes inbox rows
 * older than `inboxRetentionMs` (7 days).
 *
 * Redis's data lost (docs/adr/0004): each pass also reads a marker key it keeps in Redis
 * (`<REDIS_PREFIX>:outbox:redis-marker`, its value recorded in `platform.outbox_reconciliation`). When the
 * marker is gone (Redis restarted empty, flushed, failed over to a replica that missed it), the jobs
 * relayed before the loss are gone too, so every unrecorded event relayed before it is due at once,
 * without the grace: `lost_before` is Redis's start time plus 2 s when Redis restarted after the marker was
 * last seen (events relayed into the new Redis are left alone), else the time of the pass. With the default
 * 10 s interval a lost event is re-enqueued within about 10 s of Redis's return; the grace stays the
 * safety net for the other losses (a job failed for good, evicted).
 */
@Injectable()
export class OutboxReconciler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxReconciler.name);
  private readonly settings: OutboxReconcilerSettings;
  private readonly poller: Poller;
  /** The marker this process last wrote to Redis and the loss it found then (kept for a pass that fails before committing). */
  private unrecorded: { marker: string; lostBefore: Date | null } | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly relay: OutboxRelay,
    private readonly subscriptions: OutboxSubscriptions,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    @Optional() @Inject(OUTBOX_RECONCILER_SETTINGS) settings: Partial<OutboxReconcilerSettings> | null = null,
  ) {
    this.settings = {
      intervalMs: config.outboxReconcile.intervalMs,
      graceMs: config.outboxReconcile.graceMs,
      chunkSize: 1000,
      maxAttempts: 5,
      autoStart: true,
      inboxRetentionMs: 7 * 24 * 60 * 60 * 1000,
      ...(settings ?? {}),
    };
    this.poller = new Poller({
      name: 'Outbox reconciliation',
      intervalMs: this.settings.intervalMs,
      // The first pass at start records Redis's marker at once: a loss right after a deploy is then told apart precisely.
      initialDelayMs: 0,
      pass: async () => void (await this.reconcile()),
      onError: (error) => this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Outbox reconciliation pass failed'),
    });
  }

  onApplicationBootstrap(): void {
    if (this.settings.autoStart) this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  /** Starts the passes (idempotent): the first at once, then every `intervalMs`; a failed pass is logged. */
  start(): void {
    this.poller.start();
  }

  /** Stops the passes and waits for the one in progress. */
  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /**
   * One pass: walks the outbox from the watermark until it reaches a row that is not due yet (or the
   * end), re-enqueues what is missing and moves the watermark. Throws when PostgreSQL fails or Redis
   * refuses the re-enqueue (nothing is marked then; the next pass tries again).
   */
  async reconcile(): Promise<ReconcilePass> {
    return this.db.transaction(async (manager) => {
      const [{ locked }] = (await manager.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [RECONCILER_LOCK])) as { locked: boolean }[];
      const [state] = (await manager.query(
        `SELECT sequence::text AS sequence, redis_marker, redis_seen_at, lost_before FROM platform.outbox_reconciliation WHERE id = 1`,
      )) as ReconciliationState[];
      const start = state.sequence;
      const pass: ReconcilePass = { checked: 0, requeued: [], abandoned: [], watermark: start, ran: locked };
      if (!locked) return pass;
      const lostBefore = await this.checkRedisMarker(manager, state, pass);
      const cutoff = new Date(Math.max(this.clock.now().getTime() - this.settings.graceMs, lostBefore?.getTime() ?? 0));
      let from = start;
      let holding = false;
      for (;;) {
        const rows: ReconcileRow[] = await manager.query(
          `SELECT id, o.sequence::text AS sequence, type, relayed_at, reconciled_at, reconcile_attempts
             FROM platform.outbox o WHERE o.sequence > $1::bigint ORDER BY o.sequence LIMIT $2`,
          [from, this.settings.chunkSize],
        );
        if (rows.length === 0) break;
        const { due, stopped } = this.dueRows(rows, cutoff);
        const missing = await this.missingConsumers(manager, due);
        for (const row of due) {
          from = row.sequence;
          const consumers = missing.get(row.id) ?? [];
          pass.checked += 1;
          if (consumers.length === 0) {
            if (!holding) pass.watermark = row.sequence;
            continue;
          }
          if (row.reconcile_attempts >= this.settings.maxAttempts) {
            pass.abandoned.push(row.id);
            if (!holding) pass.watermark = row.sequence;
            continue;
          }
          holding = true;
          if (row.reconciled_at === null || row.reconciled_at <= cutoff) pass.requeued.push({ eventId: row.id, consumers });
        }
        await this.requeue(manager, rows, pass.requeued.slice());
        if (stopped || rows.length < this.settings.chunkSize) break;
      }
      if (lostBefore && lostBefore.getTime() > this.clock.now().getTime() - this.settings.graceMs) await this.requeueLostWithRedis(manager, from, lostBefore, pass);
      await manager.query(`UPDATE platform.outbox_reconciliation SET sequence = GREATEST(sequence, $1::bigint) WHERE id = 1`, [pass.watermark]);
      await manager.query(`DELETE FROM platform.event_inbox WHERE recorded_at < $1`, [new Date(this.clock.now().getTime() - this.settings.inboxRetentionMs)]);
      if (pass.abandoned.length > 0) {
        this.logger.error({ events: pass.abandoned, attempts: this.settings.maxAttempts }, 'Outbox events never recorded by a consumer; the reconciler gave up on them');
      }
      if (pass.requeued.length > 0) this.logger.warn({ events: pass.requeued.length }, 'Outbox events re-enqueued for consumers that had not recorded them');
      return pass;
    });
  }

  /**
   * Compares Redis's marker with the one recorded; answers the time before which an unrecorded relayed
   * event counts as lost (the recorded one, moved on when the marker is gone). Redis not answering: the
   * recorded time, nothing changed (the re-enqueues of this pass fail anyway).
   *
   * No marker recorded for this prefix yet (a new install, an upgrade, or Redis restarted empty before
   * the first pass could record one, as when it is lost seconds after a deploy): what this Redis holds
   * dates from its start, so unrecorded events relayed before it started (plus 2 s) count as lost. (A
   * Redis with persistence restarted before that first pass may still hold their jobs: the copies are
   * absorbed by the inbox.) Redis's marker equal to the one this process wrote last but did not get
   * recorded (PostgreSQL failed before the pass committed) is no loss.
   */
  private async checkRedisMarker(manager: EntityManager, state: ReconciliationState, pass: ReconcilePass): Promise<Date | null> {
    const key = `${this.config.redisPrefix}:outbox:redis-marker`;
    const now = this.clock.now();
    let seen: { marker: string | null; uptimeS: number };
    try {
      seen = await this.relay.onRedis(async (redis) => {
        const [marker, info] = await Promise.all([redis.get(key), redis.info('server')]);
        return { marker, uptimeS: Number(/uptime_in_seconds:(\d+)/.exec(info)?.[1] ?? NaN) };
      });
    } catch {
      return state.lost_before;
    }
    if (seen.marker !== null && seen.marker === state.redis_marker) {
      await manager.query(`UPDATE platform.outbox_reconciliation SET redis_seen_at = $1 WHERE id = 1`, [now]);
      return state.lost_before;
    }
    if (seen.marker !== null && seen.marker === this.unrecorded?.marker) {
      // Written by a pass of this process that did not commit (PostgreSQL failed): what that pass found still holds.
      return this.recordMarker(manager, state, seen.marker, now, this.unrecorded.lostBefore, pass);
    }
    // The value names the prefix: a database shared by several prefixes (tests) never mistakes one for a loss.
    const marker = `${this.config.redisPrefix} ${randomUUID()}`;
    const restartedAt = Number.isFinite(seen.uptimeS) ? now.getTime() - (seen.uptimeS + 1) * 1000 : NaN;
    let lost: Date | null;
    if (state.redis_marker === null || !state.redis_marker.startsWith(`${this.config.redisPrefix} `)) {
      // First marker here: only what predates this Redis's start is known to be lost.
      lost = Number.isFinite(restartedAt) ? new Date(Math.min(now.getTime(), restartedAt + REDIS_RESTART_MARGIN_MS)) : null;
    } else {
      const restartedSinceSeen = state.redis_seen_at !== null && restartedAt > new Date(state.redis_seen_at).getTime();
      lost = new Date(restartedSinceSeen ? Math.min(now.getTime(), restartedAt + REDIS_RESTART_MARGIN_MS) : now.getTime());
    }
    await this.relay.onRedis((redis) => redis.set(key, marker));
    this.unrecorded = { marker, lostBefore: lost };
    return this.recordMarker(manager, state, marker, now, lost, pass, seen.uptimeS);
  }

  /**
   * Records `marker` as Redis's, seen at `now`, and the loss boundary: the later of the recorded one and
   * `lost` (data lost before that time). A loss within the grace is reported on `pass` and logged.
   */
  private async recordMarker(
    manager: EntityManager,
    state: ReconciliationState,
    marker: string,
    now: Date,
    lost: Date | null,
    pass: ReconcilePass,
    redisUptimeS?: number,
  ): Promise<Date | null> {
    const recorded = state.lost_before === null ? null : new Date(state.lost_before);
    const lostBefore = lost !== null && (recorded === null || recorded < lost) ? lost : recorded;
    await manager.query(`UPDATE platform.outbox_reconciliation SET redis_marker = $1, redis_seen_at = $2, lost_before = $3 WHERE id = 1`, [marker, now, lostBefore]);
    if (lost !== null && lostBefore !== null && lost.getTime() > now.getTime() - this.settings.graceMs) {
      pass.redisLostBefore = lostBefore;
      const fields = { lostBefore: lostBefore.toISOString(), redisUptimeS, markerLastSeen: state.redis_seen_at };
      // Without a recorded marker (a first start next to a Redis just started, most of the time) nothing is known to be lost.
      if (state.redis_marker?.startsWith(`${this.config.redisPrefix} `)) this.logger.warn(fields, "Redis's data was lost: unrecorded events relayed before lostBefore are re-enqueued now");
      else this.logger.log(fields, 'No Redis marker recorded yet and Redis started recently: unrecorded events relayed before it started are re-enqueued now');
    }
    return lostBefore;
  }

  /**
   * The walk stops at the first row relayed after the loss, but rows are relayed out of sequence order
   * (a transaction committed late, a batch retried while Redis was down): the unrecorded rows past
   * `from` relayed before `lostBefore` and not re-enqueued since are re-enqueued too (they do not move
   * the watermark). Runs only while the loss is more recent than the grace.
   */
  private async requeueLostWithRedis(manager: EntityManager, from: string, lostBefore: Date, pass: ReconcilePass): Promise<void> {
    for (let after = from; ; ) {
      const rows: ReconcileRow[] = await manager.query(
        `SELECT id, o.sequence::text AS sequence, type, relayed_at, reconciled_at, reconcile_attempts
           FROM platform.outbox o
          WHERE o.sequence > $1::bigint AND o.relayed_at <= $2 AND (o.reconciled_at IS NULL OR o.reconciled_at <= $2) AND o.reconcile_attempts < $3
          ORDER BY o.sequence LIMIT $4`,
        [after, lostBefore, this.settings.maxAttempts, this.settings.chunkSize],
      );
      if (rows.length === 0) return;
      const missing = await this.missingConsumers(manager, rows);
      const entries = rows.filter((row) => missing.has(row.id)).map((row) => ({ eventId: row.id, consumers: missing.get(row.id) as string[] }));
      await this.requeue(manager, rows, entries);
      pass.requeued.push(...entries);
      if (rows.length < this.settings.chunkSize) return;
      after = rows[rows.length - 1].sequence;
    }
  }

  /** The leading rows that are due: relayed, and relayed more than the grace ago. `stopped` when a row was not. */
  private dueRows(rows: ReconcileRow[], cutoff: Date): { due: ReconcileRow[]; stopped: boolean } {
    const index = rows.findIndex((row) => row.relayed_at === null || row.relayed_at > cutoff);
    return index === -1 ? { due: rows, stopped: false } : { due: rows.slice(0, index), stopped: true };
  }

  /** Per event id, the subscribed consumers that have no inbox row for it. */
  private async missingConsumers(manager: EntityManager, rows: ReconcileRow[]): Promise<Map<string, string[]>> {
    const missing = new Map<string, string[]>();
    if (rows.length === 0) return missing;
    const recorded: { event_id: string; consumer: string }[] = await manager.query(
      `SELECT event_id, consumer FROM platform.event_inbox WHERE event_id = ANY($1::uuid[])`,
      [rows.map((row) => row.id)],
    );
    const seen = new Set(recorded.map((entry) => `${entry.event_id} ${entry.consumer}`));
    for (const row of rows) {
      const consumers = this.subscriptions
        .consumersOf(row.type)
        .map((subscription) => subscription.consumer)
        .filter((consumer) => !seen.has(`${row.id} ${consumer}`));
      if (consumers.length > 0) missing.set(row.id, consumers);
    }
    return missing;
  }

  /** Re-enqueues the given events (of `rows`) for their missing consumers and stamps them. */
  private async requeue(manager: EntityManager, rows: ReconcileRow[], requeued: ReconcilePass['requeued']): Promise<void> {
    const byId = new Map(rows.map((row) => [row.id, row]));
    const entries = requeued.filter((entry) => byId.has(entry.eventId));
    if (entries.length === 0) return;
    const byConsumer = new Map<string, ConsumerBatch>();
    const subscriptionOf = new Map(this.subscriptions.all().map((subscription) => [subscription.consumer, subscription] as const));
    let attempt = 0;
    for (const { eventId, consumers } of entries) {
      const row = byId.get(eventId) as ReconcileRow;
      attempt = Math.max(attempt, row.reconcile_attempts + 1);
      for (const consumer of consumers) {
        const subscription = subscriptionOf.get(consumer);
        if (!subscription) continue;
        let batch = byConsumer.get(consumer);
        if (!batch) byConsumer.set(consumer, (batch = { subscription, events: [] }));
        batch.events.push({ id: row.id, type: row.type });
      }
    }
    await this.relay.requeue([...byConsumer.values()], attempt);
    await manager.query(
      `UPDATE platform.outbox SET reconcile_attempts = reconcile_attempts + 1, reconciled_at = $2 WHERE id = ANY($1::uuid[])`,
      [entries.map((entry) => entry.eventId), this.clock.now()],
    );
  }
}
