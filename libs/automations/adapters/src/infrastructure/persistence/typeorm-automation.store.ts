import { Injectable } from '@nestjs/common';
import { AccountId, isUuid } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, AccountScopedCache, TransactionHost } from '@leadflow/shared-platform';
import {
  AutomationRecordState,
  AutomationStore,
  ExecutionRun,
  NewExecution,
  StaleExecution,
  StoredStep,
  StoredTrigger,
  WindowCount,
} from '@leadflow/automations-core';

interface AutomationRow {
  id: string;
  account_id: string;
  name: string;
  is_active: boolean;
  is_published: boolean;
  allow_concurrent_runs: boolean;
  trigger: StoredTrigger | null;
  steps: StoredStep[];
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface ExecutionRow {
  id: string;
  account_id: string;
  automation_id: string;
  automation_name: string;
  contact_id: string;
  status: ExecutionRun['status'];
  trigger_type: ExecutionRun['triggerType'];
  event_data: Record<string, unknown>;
  steps: StoredStep[];
  step_index: number;
  retry_count: number;
}

const toAutomation = (row: AutomationRow): AutomationRecordState => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  isActive: row.is_active,
  isPublished: row.is_published,
  allowConcurrentRuns: row.allow_concurrent_runs,
  trigger: row.trigger,
  steps: row.steps,
  archivedAt: row.archived_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toRun = (row: ExecutionRow): ExecutionRun => ({
  id: row.id,
  accountId: row.account_id,
  automationId: row.automation_id,
  automationName: row.automation_name,
  contactId: row.contact_id,
  status: row.status,
  triggerType: row.trigger_type,
  eventData: row.event_data ?? {},
  steps: row.steps,
  stepIndex: row.step_index,
  retryCount: row.retry_count,
});

const toWindow = (row: { count: string | number; oldest: Date | null } | undefined): WindowCount => ({
  count: Number(row?.count ?? 0),
  oldest: row?.oldest ?? null,
});

/** How early a resume job may fire and still take a `waiting` execution (BullMQ delays are not exact). */
const RESUME_TOLERANCE = `interval '2 seconds'`;

/**
 * {@link AutomationStore} in the `automations` schema with SQL through the current unit of work.
 * Leases and resume times use `clock_timestamp()` (one clock for every worker). The automations a
 * trigger starts are read through a per-account cache (topic `config`, 30 s), invalidated after commit
 * whenever automations are written, so the worker does not query them for every contact event.
 */
@Injectable()
export class TypeOrmAutomationStore extends AutomationStore {
  private readonly triggered: AccountScopedCache<AutomationRecordState[]>;

  constructor(
    private readonly transactions: TransactionHost,
    private readonly invalidation: AccountCacheInvalidation,
  ) {
    super();
    this.triggered = new AccountScopedCache(invalidation, { topic: 'config', max: 20_000, ttlMs: 30_000 });
  }

  /** Rows of a statement (TypeORM answers `[rows, affected]` for UPDATE/DELETE … RETURNING on PostgreSQL). */
  private async query<T = unknown>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    const result: unknown = await this.transactions.manager.query(sql, parameters);
    if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
    return result as T[];
  }

  async insertAutomations(rows: readonly AutomationRecordState[]): Promise<void> {
    for (const accountId of new Set(rows.map((row) => row.accountId))) {
      await this.transactions.afterCommit(() => this.invalidation.invalidate('config', accountId));
    }
    for (const row of rows) {
      await this.query(
        `INSERT INTO automations.automations (id, account_id, name, is_active, is_published, allow_concurrent_runs, trigger_type, trigger, steps, archived_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [row.id, row.accountId, row.name, row.isActive, row.isPublished, row.allowConcurrentRuns, row.trigger?.type ?? null,
          row.trigger ? JSON.stringify(row.trigger) : null, JSON.stringify(row.steps), row.archivedAt, row.createdAt, row.updatedAt],
      );
    }
  }

  async findAutomation(accountId: AccountId, automationId: string): Promise<AutomationRecordState | null> {
    if (!isUuid(automationId)) return null; // the port's contract: an id that names nothing reads as missing (never a 22P02)
    const [row] = await this.query<AutomationRow>(
      `SELECT * FROM automations.automations WHERE account_id = $1 AND id = $2 AND archived_at IS NULL`,
      [accountId, automationId],
    );
    return row ? toAutomation(row) : null;
  }

  async findTriggered(accountId: AccountId, type: StoredTrigger['type'], event?: string): Promise<AutomationRecordState[]> {
    if (this.transactions.inTransaction) return this.loadTriggered(accountId, type, event);
    return this.triggered.get(accountId, `${type}\u0000${event ?? ''}`, () => this.loadTriggered(accountId, type, event));
  }

  private async loadTriggered(accountId: AccountId, type: StoredTrigger['type'], event?: string): Promise<AutomationRecordState[]> {
    const rows = await this.query<AutomationRow>(
      `SELECT * FROM automations.automations
        WHERE account_id = $1 AND trigger_type = $2 AND archived_at IS NULL AND is_active AND is_published
          AND ($3::text IS NULL OR trigger->>'event' = $3)
        ORDER BY created_at, id`,
      [accountId, type, event ?? null],
    );
    return rows.map(toAutomation);
  }

  async lock(key: string): Promise<void> {
    await this.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [key]);
  }

  async activeExecutionId(accountId: AccountId, automationId: string, contactId: string): Promise<string | null> {
    const [row] = await this.query<{ id: string }>(
      `SELECT id FROM automations.executions
        WHERE account_id = $1 AND automation_id = $2 AND contact_id = $3 AND status IN ('pending', 'running', 'waiting')
        ORDER BY created_at DESC LIMIT 1`,
      [accountId, automationId, contactId],
    );
    return row?.id ?? null;
  }

  async duplicateSince(accountId: AccountId, automationId: string, contactId: string, fingerprint: string, since: Date): Promise<WindowCount> {
    const [row] = await this.query<{ count: string; oldest: Date | null }>(
      `SELECT count(*) AS count, min(created_at) AS oldest FROM automations.executions
        WHERE account_id = $1 AND automation_id = $2 AND contact_id = $3 AND trigger_type = 'manual_api'
          AND event_fingerprint = $4 AND created_at > $5`,
      [accountId, automationId, contactId, fingerprint, since],
    );
    return toWindow(row);
  }

  async enrolmentsSince(accountId: AccountId, automationId: string, contactId: string, since: Date): Promise<WindowCount> {
    const [row] = await this.query<{ count: string; oldest: Date | null }>(
      `SELECT count(*) AS count, min(created_at) AS oldest FROM automations.executions
        WHERE account_id = $1 AND automation_id = $2 AND contact_id = $3 AND created_at > $4`,
      [accountId, automationId, contactId, since],
    );
    return toWindow(row);
  }

  async accountExecutionsSince(accountId: AccountId, since: Date): Promise<WindowCount> {
    const [row] = await this.query<{ count: string; oldest: Date | null }>(
      `SELECT count(*) AS count, min(created_at) AS oldest FROM automations.executions WHERE account_id = $1 AND created_at > $2`,
      [accountId, since],
    );
    return toWindow(row);
  }

  async insertExecution(row: NewExecution): Promise<boolean> {
    const inserted = await this.query<{ id: string }>(
      `INSERT INTO automations.executions (id, account_id, automation_id, contact_id, status, trigger_type, event_data, event_fingerprint,
         source_event_id, steps, step_index, retry_count, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8, $9, 0, 0, $10, $10)
       ON CONFLICT (account_id, automation_id, source_event_id) WHERE source_event_id IS NOT NULL DO NOTHING
       RETURNING id`,
      [row.id, row.accountId, row.automationId, row.contactId, row.triggerType, JSON.stringify(row.eventData ?? {}), row.eventFingerprint,
        row.sourceEventId, JSON.stringify(row.steps), row.createdAt],
    );
    return inserted.length > 0;
  }

  /**
   * Waits for a row lock held by another run's step (never skips it: a skipped job would leave a crashed
   * run to the next sweep) and re-checks the conditions on the row as committed.
   */
  async acquire(executionId: string, token: string, leaseMs: number, now: Date): Promise<(ExecutionRun & { restarted: boolean }) | null> {
    const rows = await this.query<ExecutionRow & { restarted: boolean }>(
      `WITH candidate AS (
         SELECT id, status = 'running' AS restarted FROM automations.executions
          WHERE id = $1
            AND (status = 'pending'
              OR (status = 'waiting' AND resume_at <= clock_timestamp() + ${RESUME_TOLERANCE})
              OR (status = 'running' AND lease_expires_at < clock_timestamp()))
          FOR UPDATE)
       UPDATE automations.executions e
          SET status = 'running', lease_token = $2, lease_expires_at = clock_timestamp() + ($3 * interval '1 millisecond'),
              retry_count = e.retry_count + (CASE WHEN c.restarted THEN 1 ELSE 0 END),
              started_at = coalesce(e.started_at, $4), resume_at = NULL, updated_at = $4
         FROM candidate c, automations.automations a
        WHERE e.id = c.id AND a.account_id = e.account_id AND a.id = e.automation_id
       RETURNING e.*, a.name AS automation_name, c.restarted`,
      [executionId, token, leaseMs, now],
    );
    const row = rows[0];
    return row ? { ...toRun(row), restarted: row.restarted } : null;
  }

  async renewLease(executionId: string, token: string, leaseMs: number): Promise<boolean> {
    const rows = await this.query(
      `UPDATE automations.executions SET lease_expires_at = clock_timestamp() + ($3 * interval '1 millisecond')
        WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING id`,
      [executionId, token, leaseMs],
    );
    return rows.length > 0;
  }

  async releaseLease(executionId: string, token: string): Promise<void> {
    await this.query(
      `UPDATE automations.executions SET lease_expires_at = clock_timestamp() - interval '1 millisecond' WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
      [executionId, token],
    );
  }

  async lockOwned(executionId: string, token: string): Promise<ExecutionRun | null> {
    const [row] = await this.query<ExecutionRow>(
      `SELECT e.*, a.name AS automation_name FROM automations.executions e JOIN automations.automations a ON a.account_id = e.account_id AND a.id = e.automation_id
        WHERE e.id = $1 AND e.lease_token = $2 AND e.status = 'running' AND e.lease_expires_at > clock_timestamp()
        FOR UPDATE OF e`,
      [executionId, token],
    );
    return row ? toRun(row) : null;
  }

  async recordStep(run: ExecutionRun, index: number, result: Record<string, unknown>, now: Date): Promise<void> {
    await this.query(
      `INSERT INTO automations.execution_steps (account_id, execution_id, step_index, type, result, retry_count, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
      [run.accountId, run.id, index, run.steps[index].type, JSON.stringify(result), run.retryCount, now],
    );
    await this.query(`UPDATE automations.executions SET step_index = $2, updated_at = $3 WHERE id = $1`, [run.id, index + 1, now]);
  }

  async markWaiting(executionId: string, seconds: number, now: Date): Promise<Date> {
    const [row] = await this.query<{ resume_at: Date }>(
      `UPDATE automations.executions
          SET status = 'waiting', resume_at = clock_timestamp() + ($2 * interval '1 second'), lease_token = NULL, lease_expires_at = NULL, updated_at = $3
        WHERE id = $1 RETURNING resume_at`,
      [executionId, seconds, now],
    );
    return row.resume_at;
  }

  async markCompleted(executionId: string, now: Date): Promise<void> {
    await this.query(
      `UPDATE automations.executions SET status = 'completed', finished_at = $2, lease_token = NULL, lease_expires_at = NULL, updated_at = $2 WHERE id = $1`,
      [executionId, now],
    );
  }

  async markFailed(executionId: string, error: Record<string, unknown>, now: Date): Promise<void> {
    await this.query(
      `UPDATE automations.executions SET status = 'failed', error = $2, finished_at = $3, lease_token = NULL, lease_expires_at = NULL, updated_at = $3 WHERE id = $1`,
      [executionId, JSON.stringify(error), now],
    );
  }

  async findStale(graceMs: number, limit: number): Promise<StaleExecution[]> {
    const rows = await this.query<{ id: string; account_id: string; status: StaleExecution['status']; step_index: number; retry_count: number }>(
      `SELECT id, account_id, status, step_index, retry_count FROM automations.executions
        WHERE status IN ('pending', 'running', 'waiting')
          AND ((status = 'running' AND lease_expires_at < clock_timestamp())
            OR (status = 'waiting' AND resume_at < clock_timestamp() - ($1 * interval '1 millisecond'))
            OR (status = 'pending' AND updated_at < now() - ($1 * interval '1 millisecond')))
        LIMIT $2`,
      [graceMs, limit],
    );
    return rows.map((row) => ({ id: row.id, accountId: row.account_id, status: row.status, stepIndex: row.step_index, retryCount: row.retry_count }));
  }
}
