import type { DataSource } from 'typeorm';

/** The outbox rows the relay has not handed to BullMQ yet (`platform.outbox`, `relayed_at IS NULL`). */
export interface OutboxBacklog {
  /** Unrelayed rows. */
  backlog: number;
  /** Age of the oldest unrelayed row (`now` − its `occurred_at`), in seconds, never negative; 0 when the backlog is empty. */
  oldestAgeSeconds: number;
}

/**
 * Reads the outbox backlog in one statement (the partial index `outbox_pending_idx` covers the unrelayed rows,
 * so the cost follows the backlog, not the table). `now` is the caller's clock (the injected Clock), the time
 * `occurred_at` was written with. Used by the worker's `/metrics` (relay lag) and the api's `/health/ready`.
 * @throws whatever the query throws (PostgreSQL unreachable).
 */
export async function readOutboxBacklog(db: DataSource, now: Date): Promise<OutboxBacklog> {
  const rows = (await db.query(
    `SELECT count(*)::int AS backlog, EXTRACT(EPOCH FROM ($1::timestamptz - min(occurred_at)))::float8 AS oldest
       FROM platform.outbox WHERE relayed_at IS NULL`,
    [now],
  )) as { backlog: number; oldest: number | null }[];
  const row = rows[0];
  return { backlog: row?.backlog ?? 0, oldestAgeSeconds: Math.max(0, row?.oldest ?? 0) };
}
