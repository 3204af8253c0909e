import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { CustomEventEnrolment, EnrolCustomEventCommand } from '@leadflow/automations-contracts';
import { CUSTOM_EVENT_DEDUP_SECONDS } from '../../../domain/trigger-limits';
import { AutomationStore } from '../../ports/automation-store.port';
import { createExecution, enrolmentLockKey } from '../enrolment';

/**
 * Published command of POST /v1/events (see {@link EnrolCustomEventCommand}): one `pending` execution
 * (trigger_type `custom_event`, the event data kept for `{{event.<key>}}`) per active, published,
 * non-archived automation whose custom_event trigger names exactly `eventName`, unless that automation
 * enrolled this contact in the last 5 minutes (any trigger type). Joins the caller's transaction; the
 * (automation, contact) advisory lock makes two concurrent events enrol once. Replaying the same
 * `eventId` creates nothing more (unique per automation and source event).
 */
@CommandHandler(EnrolCustomEventCommand)
export class EnrolCustomEventHandler implements ICommandHandler<EnrolCustomEventCommand> {
  constructor(
    private readonly store: AutomationStore,
    private readonly outbox: Journal,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, contactId, eventName, eventData, eventId }: EnrolCustomEventCommand): Promise<CustomEventEnrolment> {
    return this.unitOfWork.run(async () => {
      const automations = await this.store.findTriggered(accountId, 'custom_event', eventName);
      const executionIds: string[] = [];
      for (const automation of automations) {
        await this.store.lock(enrolmentLockKey(accountId, automation.id, contactId));
        const since = new Date(this.clock.now().getTime() - CUSTOM_EVENT_DEDUP_SECONDS * 1000);
        if ((await this.store.enrolmentsSince(accountId, automation.id, contactId, since)).count > 0) continue;
        const created = await createExecution(this.store, this.outbox, this.clock, automation, contactId, 'custom_event', eventData ?? {}, eventId);
        if (created) executionIds.push(created.id);
      }
      return { executionIds };
    });
  }
}
