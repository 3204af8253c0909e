import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork, isUuid } from '@leadflow/shared-kernel';
import { fingerprintOf } from '../../../domain/automation-definition';
import {
  AlreadyEnrolledError,
  AutomationContactNotFoundError,
  AutomationInactiveError,
  AutomationNotFoundError,
  AutomationNotPublishedError,
  NoTriggerError,
  TriggerThrottledError,
} from '../../../domain/automations.errors';
import { TRIGGER_LIMITS } from '../../../domain/trigger-limits';
import { AutomationCollaborators } from '../../ports/automation-effects.port';
import { AutomationStore, WindowCount } from '../../ports/automation-store.port';
import type { TriggeredExecutionView } from '../../views';
import { createExecution, enrolmentLockKey } from '../enrolment';
import { TriggerAutomationCommand } from './trigger-automation.command';

/** Advisory-lock key of an account's manual triggers: the checks and the insert run one at a time per account. */
export function accountTriggerLockKey(accountId: string): string {
  return `automations:trigger:${accountId}`;
}

/** Seconds until the oldest row of a full window leaves it. */
function retryAfter(window: WindowCount, windowSeconds: number, now: Date): number {
  if (!window.oldest) return windowSeconds;
  return (window.oldest.getTime() + windowSeconds * 1000 - now.getTime()) / 1000;
}

/**
 * POST /v1/automations/{id}/trigger. In one transaction, under a per-account advisory lock (so
 * concurrent calls cannot both pass a limit), in this order:
 * 1. 404 `not_found` `details.resource` `automation`: missing, archived, another account's, not a UUID;
 * 2. 404 `not_found` `details.resource` `contact`: missing, archived, merged, another account's;
 * 3. 409 `automation_inactive`; 4. 409 `automation_not_published`; 5. 409 `no_trigger`;
 * 6. 409 `already_enrolled` (a pending, running or waiting execution of this contact) unless the
 *    automation allows concurrent runs;
 * 7. 429 `trigger_throttled` with `details.limit`: `duplicate_trigger` (same automation, contact and
 *    event_data accepted in the last 5 minutes), `contact_daily_enrolments` (5 executions of this
 *    automation for this contact in the last 24 hours, any trigger type), `account_hourly_executions`
 *    (200 executions of the account in the last hour, any automation or trigger type).
 * Then a `pending` execution (trigger_type `manual_api`) and its hand-off to the engine (outbox).
 * (The plan gate, 403 `feature_not_available`, is the route's.)
 */
@CommandHandler(TriggerAutomationCommand)
export class TriggerAutomationHandler implements ICommandHandler<TriggerAutomationCommand> {
  constructor(
    private readonly store: AutomationStore,
    private readonly outbox: Journal,
    private readonly unitOfWork: UnitOfWork,
    private readonly collaborators: AutomationCollaborators,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, automationId, contactId, eventData, actor }: TriggerAutomationCommand): Promise<TriggeredExecutionView> {
    return this.unitOfWork.run(async () => {
      if (!isUuid(automationId)) throw new AutomationNotFoundError();
      await this.store.lock(accountTriggerLockKey(accountId));
      const automation = await this.store.findAutomation(accountId, automationId);
      if (!automation) throw new AutomationNotFoundError();
      const contact = isUuid(contactId) ? await this.collaborators.contact(accountId, contactId.toLowerCase()) : null;
      if (!contact || contact.archived) throw new AutomationContactNotFoundError();
      await this.store.lock(enrolmentLockKey(accountId, automation.id, contact.id)); // same key as custom-event enrolment
      if (!automation.isActive) throw new AutomationInactiveError();
      if (!automation.isPublished) throw new AutomationNotPublishedError();
      if (!automation.trigger) throw new NoTriggerError();
      if (!automation.allowConcurrentRuns) {
        const active = await this.store.activeExecutionId(accountId, automation.id, contact.id);
        if (active) throw new AlreadyEnrolledError(active);
      }
      const now = this.clock.now();
      const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
      const duplicate = await this.store.duplicateSince(accountId, automation.id, contact.id, fingerprintOf(eventData), ago(TRIGGER_LIMITS.duplicateWindowSeconds));
      if (duplicate.count > 0) {
        throw new TriggerThrottledError('duplicate_trigger', 1, TRIGGER_LIMITS.duplicateWindowSeconds, retryAfter(duplicate, TRIGGER_LIMITS.duplicateWindowSeconds, now));
      }
      const daily = TRIGGER_LIMITS.contactEnrolments;
      const enrolments = await this.store.enrolmentsSince(accountId, automation.id, contact.id, ago(daily.windowSeconds));
      if (enrolments.count >= daily.max) {
        throw new TriggerThrottledError('contact_daily_enrolments', daily.max, daily.windowSeconds, retryAfter(enrolments, daily.windowSeconds, now));
      }
      const hourly = TRIGGER_LIMITS.accountExecutions;
      const executions = await this.store.accountExecutionsSince(accountId, ago(hourly.windowSeconds));
      if (executions.count >= hourly.max) {
        throw new TriggerThrottledError('account_hourly_executions', hourly.max, hourly.windowSeconds, retryAfter(executions, hourly.windowSeconds, now));
      }
      const created = await createExecution(this.store, this.outbox, this.clock, automation, contact.id, 'manual_api', eventData, null, actor);
      if (!created) throw new Error('execution insert conflicted without a source event');
      return {
        id: created.id,
        automation_id: automation.id,
        contact_id: contact.id,
        status: 'pending',
        trigger_type: 'manual_api',
        retry_count: 0,
        created_at: created.createdAt.toISOString(),
      };
    });
  }
}
