import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { StoredTrigger } from '../domain/automation-definition';
import { AutomationCollaborators, AutomationContact, ResolvedStage } from '../application/ports/automation-effects.port';
import {
  AutomationRecordState,
  AutomationStore,
  ExecutionRun,
  NewExecution,
  StaleExecution,
  WindowCount,
} from '../application/ports/automation-store.port';

type StoredExecution = NewExecution & { status: ExecutionRun['status'] };

/** In-memory {@link AutomationStore} for handler unit tests (enrolment side; the engine side is tested on PostgreSQL). */
export class InMemoryAutomationStore extends AutomationStore {
  readonly automations: AutomationRecordState[] = [];
  readonly executions: StoredExecution[] = [];
  readonly locks: string[] = [];

  async insertAutomations(rows: readonly AutomationRecordState[]): Promise<void> {
    this.automations.push(...rows);
  }

  async findAutomation(accountId: AccountId, automationId: string): Promise<AutomationRecordState | null> {
    return this.automations.find((a) => a.accountId === accountId && a.id === automationId && !a.archivedAt) ?? null;
  }

  async findTriggered(accountId: AccountId, type: StoredTrigger['type'], event?: string): Promise<AutomationRecordState[]> {
    return this.automations.filter(
      (a) => a.accountId === accountId && !a.archivedAt && a.isActive && a.isPublished && a.trigger?.type === type && (event === undefined || a.trigger.event === event),
    );
  }

  async lock(key: string): Promise<void> {
    this.locks.push(key);
  }

  async activeExecutionId(accountId: AccountId, automationId: string, contactId: string): Promise<string | null> {
    return this.executions.find((e) => e.accountId === accountId && e.automationId === automationId && e.contactId === contactId && ['pending', 'running', 'waiting'].includes(e.status))?.id ?? null;
  }

  private window(rows: StoredExecution[]): WindowCount {
    const oldest = rows.map((e) => e.createdAt).sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
    return { count: rows.length, oldest };
  }

  async duplicateSince(accountId: AccountId, automationId: string, contactId: string, fingerprint: string, since: Date): Promise<WindowCount> {
    return this.window(this.executions.filter((e) => e.accountId === accountId && e.automationId === automationId && e.contactId === contactId && e.triggerType === 'manual_api' && e.eventFingerprint === fingerprint && e.createdAt > since));
  }

  async enrolmentsSince(accountId: AccountId, automationId: string, contactId: string, since: Date): Promise<WindowCount> {
    return this.window(this.executions.filter((e) => e.accountId === accountId && e.automationId === automationId && e.contactId === contactId && e.createdAt > since));
  }

  async accountExecutionsSince(accountId: AccountId, since: Date): Promise<WindowCount> {
    return this.window(this.executions.filter((e) => e.accountId === accountId && e.createdAt > since));
  }

  async insertExecution(row: NewExecution): Promise<boolean> {
    if (row.sourceEventId && this.executions.some((e) => e.automationId === row.automationId && e.sourceEventId === row.sourceEventId)) return false;
    this.executions.push({ ...row, status: 'pending' });
    return true;
  }

  private unsupported(): never {
    throw new Error('engine methods are tested on PostgreSQL (apps/worker/test/automation-engine.integration-spec.ts)');
  }

  acquire(): Promise<(ExecutionRun & { restarted: boolean }) | null> {
    return this.unsupported();
  }
  renewLease(): Promise<boolean> {
    return this.unsupported();
  }
  releaseLease(): Promise<void> {
    return this.unsupported();
  }
  lockOwned(): Promise<ExecutionRun | null> {
    return this.unsupported();
  }
  recordStep(): Promise<void> {
    return this.unsupported();
  }
  markWaiting(): Promise<Date> {
    return this.unsupported();
  }
  markCompleted(): Promise<void> {
    return this.unsupported();
  }
  markFailed(): Promise<void> {
    return this.unsupported();
  }
  findStale(): Promise<StaleExecution[]> {
    return this.unsupported();
  }
}

/** Contacts by id; stage resolution and effects are not used by the enrolment handlers. */
export class FakeAutomationCollaborators extends AutomationCollaborators {
  readonly contacts = new Map<string, AutomationContact>();

  async contact(_accountId: AccountId, contactId: string): Promise<AutomationContact | null> {
    return this.contacts.get(contactId) ?? null;
  }
  async resolveStage(): Promise<ResolvedStage | null> {
    return null;
  }
  async addTag(_a: AccountId, _c: string, _t: string, _actor: Actor): Promise<{ tagId: string; added: boolean }> {
    return { tagId: 'tag', added: true };
  }
  async removeTag(): Promise<{ removed: boolean }> {
    return { removed: true };
  }
  async queueEmail(): Promise<{ emailId: string }> {
    return { emailId: 'email' };
  }
  async moveToStage(): Promise<{ changed: boolean }> {
    return { changed: true };
  }
}
