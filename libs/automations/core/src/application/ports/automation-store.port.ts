import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { StoredStep, StoredTrigger } from '../../domain/automation-definition';
import type { ExecutionStatus, ExecutionTriggerType } from '../../domain/trigger-limits';
import type { AutomationView, ExecutionView } from '../views';

/** An automation row. */
export interface AutomationRecordState {
  id: string;
  accountId: string;
  name: string;
  isActive: boolean;
  isPublished: boolean;
  allowConcurrentRuns: boolean;
  trigger: StoredTrigger | null;
  steps: StoredStep[];
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A new execution row (status `pending`, cursor 0). */
export interface NewExecution {
  id: string;
  accountId: string;
  automationId: string;
  contactId: string;
  triggerType: ExecutionTriggerType;
  eventData: Record<string, unknown>;
  eventFingerprint: string;
  /** Outbox event id (contact_created, stage_changed) or custom event id: at most one execution per (automation, source event). */
  sourceEventId: string | null;
  steps: StoredStep[];
  createdAt: Date;
}

/** An execution as the engine holds it while it owns the lease. */
export interface ExecutionRun {
  id: string;
  accountId: string;
  automationId: string;
  automationName: string;
  contactId: string;
  status: ExecutionStatus;
  triggerType: ExecutionTriggerType;
  eventData: Record<string, unknown>;
  steps: StoredStep[];
  stepIndex: number;
  retryCount: number;
}

/** An unfinished execution the sweeper hands back to the queue. */
export interface StaleExecution {
  id: string;
  accountId: string;
  status: 'pending' | 'running' | 'waiting';
  stepIndex: number;
  retryCount: number;
}

/** Rows counted in a throttle window, with the oldest instant (to compute Retry-After). */
export interface WindowCount {
  count: number;
  oldest: Date | null;
}

/** Persistence of automations and executions; every call goes through the current unit of work. */
export abstract class AutomationStore {
  abstract insertAutomations(rows: readonly AutomationRecordState[]): Promise<void>;
  /** Not archived; null for missing, archived, other account's or a non-UUID id. */
  abstract findAutomation(accountId: AccountId, automationId: string): Promise<AutomationRecordState | null>;
  /** Active, published, not archived automations whose trigger has `type` (custom_event: and exactly `event`). */
  abstract findTriggered(accountId: AccountId, type: StoredTrigger['type'], event?: string): Promise<AutomationRecordState[]>;
  /** Transaction-scoped advisory lock on a text key (serialises checks-then-insert). */
  abstract lock(key: string): Promise<void>;
  abstract activeExecutionId(accountId: AccountId, automationId: string, contactId: string): Promise<string | null>;
  abstract duplicateSince(accountId: AccountId, automationId: string, contactId: string, fingerprint: string, since: Date): Promise<WindowCount>;
  abstract enrolmentsSince(accountId: AccountId, automationId: string, contactId: string, since: Date): Promise<WindowCount>;
  abstract accountExecutionsSince(accountId: AccountId, since: Date): Promise<WindowCount>;
  /** False when an execution already exists for (automation, source event). */
  abstract insertExecution(row: NewExecution): Promise<boolean>;

  // Engine (worker)
  /**
   * Takes the execution's lease when it is `pending`, `waiting`, or `running` with an expired lease
   * (a crashed or failed run: `retry_count` + 1); sets `running`. Null when another run holds it or it is finished.
   */
  abstract acquire(executionId: string, token: string, leaseMs: number, now: Date): Promise<(ExecutionRun & { restarted: boolean }) | null>;
  /** Extends the lease (database time); false when the lease was lost. */
  abstract renewLease(executionId: string, token: string, leaseMs: number): Promise<boolean>;
  /** Gives the lease up at once (a retry may take it). */
  abstract releaseLease(executionId: string, token: string): Promise<void>;
  /** Locks the execution row for one step while this token holds the lease; null when it was lost. */
  abstract lockOwned(executionId: string, token: string): Promise<ExecutionRun | null>;
  /** Per-step marker and cursor: `step_index` becomes `index + 1`. */
  abstract recordStep(run: ExecutionRun, index: number, result: Record<string, unknown>, now: Date): Promise<void>;
  /** `waiting` until `seconds` from now (database time), lease released; returns `resume_at`. */
  abstract markWaiting(executionId: string, seconds: number, now: Date): Promise<Date>;
  abstract markCompleted(executionId: string, now: Date): Promise<void>;
  abstract markFailed(executionId: string, error: Record<string, unknown>, now: Date): Promise<void>;
  /** Running with an expired lease, waiting past `resume_at` + grace, pending older than grace. */
  abstract findStale(graceMs: number, limit: number): Promise<StaleExecution[]>;
}

/** `limit` rows after a keyset position (`created_at DESC, id DESC`). */
export interface PageWindow {
  limit: number;
  after: KeysetPosition | null;
}

/** Reads of the public routes. */
export abstract class AutomationsReadModel {
  abstract list(accountId: AccountId, filter: { isActive: boolean | null }, page: PageWindow): Promise<Page<AutomationView>>;
  abstract history(accountId: AccountId, automationId: string, page: PageWindow): Promise<Page<ExecutionView>>;
  abstract execution(accountId: AccountId, executionId: string): Promise<ExecutionView | null>;
}
