import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork, isUuid } from '@leadflow/shared-kernel';
import { CONTACT_EVENTS, STAGE_CHANGED_EVENT } from '@leadflow/contacts-contracts';
import type { AutomationRecordState } from '../../ports/automation-store.port';
import { AutomationStore } from '../../ports/automation-store.port';
import { AutomationCollaborators } from '../../ports/automation-effects.port';
import { EnrolFromIntegrationEventCommand } from './enrol-from-integration-event.command';
import { createExecution, enrolmentLockKey } from '../enrolment';

/**
 * `contact_created` and `stage_changed` triggers (worker, from the contacts context's outbox events).
 * Enrols the event's contact in every active, published, non-archived automation with that trigger
 * type, in one transaction (opened only when some automation listens: the candidates come from the
 * store's per-account cache first):
 * - `stage_changed` filter: a trigger with `stage_id` matches moves into that stage, with only
 *   `pipeline_id` moves into any stage of that pipeline, with neither any move into a stage; a
 *   removal from the pipeline (`to_stage_id` null) enrols nothing;
 * - an archived, merged or missing contact enrols nothing;
 * - an automation that does not allow concurrent runs skips a contact already in an active run;
 * - an automation never enrols from a move it made itself (actor `automation` with its id), and
 *   events written by `webhook` steps never enrol (no loops);
 * - idempotent per (event id, automation): a redelivered event creates nothing more.
 */
@CommandHandler(EnrolFromIntegrationEventCommand)
export class EnrolFromIntegrationEventHandler implements ICommandHandler<EnrolFromIntegrationEventCommand> {
  constructor(
    private readonly store: AutomationStore,
    private readonly outbox: Journal,
    private readonly unitOfWork: UnitOfWork,
    private readonly collaborators: AutomationCollaborators,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, eventId, eventType, payload, actor }: EnrolFromIntegrationEventCommand): Promise<{ executionIds: string[] }> {
    const none = { executionIds: [] };
    if (payload.source === 'automation_webhook_step') return none;
    const contactId = payload.contact_id;
    if (!isUuid(contactId)) return none;
    // The candidates are read before any transaction (the store's per-account cache answers them):
    // an event no automation listens to, the common case, costs no statement at all.
    const candidates = (await this.candidates(accountId, eventType, payload)).filter(
      (automation) => !(actor?.type === 'automation' && actor.id === automation.id),
    );
    if (candidates.length === 0) return none;
    return this.unitOfWork.run(async () => {
      const contact = await this.collaborators.contact(accountId, contactId);
      if (!contact || contact.archived) return none;
      const eventData: Record<string, unknown> = { ...payload };
      delete eventData.contact;
      const executionIds: string[] = [];
      for (const automation of candidates) {
        await this.store.lock(enrolmentLockKey(accountId, automation.id, contact.id));
        if (!automation.allowConcurrentRuns && (await this.store.activeExecutionId(accountId, automation.id, contact.id))) continue;
        const created = await createExecution(this.store, this.outbox, this.clock, automation, contact.id, automation.trigger!.type as 'contact_created' | 'stage_changed', eventData, eventId);
        if (created) executionIds.push(created.id);
      }
      return { executionIds };
    });
  }

  /** Active, published automations whose trigger the event matches (stage filter applied). */
  private async candidates(
    accountId: EnrolFromIntegrationEventCommand['accountId'],
    eventType: string,
    payload: EnrolFromIntegrationEventCommand['payload'],
  ): Promise<AutomationRecordState[]> {
    if (eventType === CONTACT_EVENTS.created) return this.store.findTriggered(accountId, 'contact_created');
    if (eventType !== STAGE_CHANGED_EVENT) return [];
    const toStage = payload.to_stage_id;
    if (typeof toStage !== 'string') return [];
    const pipeline = payload.pipeline_id;
    return (await this.store.findTriggered(accountId, 'stage_changed')).filter(({ trigger }) => {
      if (trigger?.stage_id) return trigger.stage_id === toStage;
      if (trigger?.pipeline_id) return trigger.pipeline_id === pipeline;
      return true;
    });
  }
}
