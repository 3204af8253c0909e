import { AccountId, Actor, Clock, Journal, newId } from '@leadflow/shared-kernel';
import { AUTOMATION_EVENTS, AutomationExecutionRequestedPayload } from '@leadflow/automations-contracts';
import { SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { fingerprintOf } from '../../domain/automation-definition';
import type { ExecutionTriggerType } from '../../domain/trigger-limits';
import { AutomationRecordState, AutomationStore } from '../ports/automation-store.port';

/** Advisory-lock key of (automation, contact): enrolment checks and the insert run one at a time. */
export function enrolmentLockKey(accountId: string, automationId: string, contactId: string): string {
  return `automations:enrol:${accountId}:${automationId}:${contactId}`;
}

/**
 * Inserts a `pending` execution (steps snapshotted) and, in the same unit of work, the internal
 * `automation_execution_requested` outbox event that hands it to the worker's engine (nothing is lost
 * when Redis is down: the relay retries). Returns null when (automation, source event) already has one.
 * `actor` is the event's: the write's when an api request enrolled the contact (a manual trigger), whose
 * request trace the outbox row's `request_id` gets (issue 17, item 4); the system otherwise.
 */
export async function createExecution(
  store: AutomationStore,
  outbox: Journal,
  clock: Clock,
  automation: AutomationRecordState,
  contactId: string,
  triggerType: ExecutionTriggerType,
  eventData: Record<string, unknown>,
  sourceEventId: string | null,
  actor: Actor = SYSTEM_ACTOR,
): Promise<{ id: string; createdAt: Date } | null> {
  const now = clock.now();
  const id = newId();
  const inserted = await store.insertExecution({
    id,
    accountId: automation.accountId,
    automationId: automation.id,
    contactId,
    triggerType,
    eventData,
    eventFingerprint: fingerprintOf(eventData),
    sourceEventId,
    steps: automation.steps,
    createdAt: now,
  });
  if (!inserted) return null;
  const payload: AutomationExecutionRequestedPayload = { automation_id: automation.id, execution_id: id, contact_id: contactId };
  await outbox.publish([
    { id: newId(), type: AUTOMATION_EVENTS.executionRequested, accountId: automation.accountId as AccountId, occurredAt: now, payload, actor },
  ]);
  return { id, createdAt: now };
}
