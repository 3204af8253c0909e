import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, FieldViolation, UnitOfWork, ValidationFailedError, newId } from '@leadflow/shared-kernel';
import { AutomationStepSpec, ProvisionAutomationsCommand } from '@leadflow/automations-contracts';
import { StoredStep, StoredTrigger, checkAutomationSpecs } from '../../../domain/automation-definition';
import { AutomationCollaborators } from '../../ports/automation-effects.port';
import { AutomationRecordState, AutomationStore } from '../../ports/automation-store.port';

/**
 * Blueprint member `automations` (operator-api): checks every definition (400 `validation_error`,
 * paths `automations[i]…`), resolves stage references against the account's pipelines (reason
 * `not_found_in_tenant` on `…stage_id`, `…pipeline_slug` or `…stage_slug`), then inserts the
 * automations in the caller's transaction. Defaults: `is_active` true, `is_published` true,
 * `allow_concurrent_runs` false, no trigger, no steps. Returns `{ <name>: <id> }`.
 */
@CommandHandler(ProvisionAutomationsCommand)
export class ProvisionAutomationsHandler implements ICommandHandler<ProvisionAutomationsCommand> {
  constructor(
    private readonly store: AutomationStore,
    private readonly collaborators: AutomationCollaborators,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, automations }: ProvisionAutomationsCommand): Promise<Record<string, string>> {
    return this.unitOfWork.run(async () => {
      if (automations.length === 0) return {};
      const violations = checkAutomationSpecs(automations);
      if (violations.length > 0) throw new ValidationFailedError(violations, 'Some automations are invalid.');
      const now = this.clock.now();
      const rows: AutomationRecordState[] = [];
      for (const [index, spec] of automations.entries()) {
        const at = `automations[${index}]`;
        let trigger: StoredTrigger | null = null;
        if (spec.trigger) {
          trigger = { type: spec.trigger.type };
          if (spec.trigger.type === 'custom_event') trigger.event = spec.trigger.event as string;
          if (spec.trigger.type === 'stage_changed') {
            const { stageId, pipelineSlug, stageSlug } = spec.trigger;
            if (stageId || pipelineSlug) {
              const stage = await this.collaborators.resolveStage(accountId, { stageId, pipelineSlug, stageSlug });
              if (!stage) violations.push(this.notFound(`${at}.trigger`, { stageId, pipelineSlug, stageSlug }));
              else Object.assign(trigger, { pipeline_id: stage.pipelineId, stage_id: stage.stageId });
            } else Object.assign(trigger, { pipeline_id: null, stage_id: null });
          }
        }
        const steps: StoredStep[] = [];
        for (const [stepIndex, step] of (spec.steps ?? []).entries()) {
          const stored = await this.toStoredStep(accountId, step, `${at}.steps[${stepIndex}]`, violations);
          if (stored) steps.push(stored);
        }
        rows.push({
          id: newId(),
          accountId,
          name: spec.name,
          isActive: spec.isActive ?? true,
          isPublished: spec.isPublished ?? true,
          allowConcurrentRuns: spec.allowConcurrentRuns ?? false,
          trigger,
          steps,
          archivedAt: null,
          createdAt: now,
          updatedAt: now,
        });
      }
      if (violations.length > 0) throw new ValidationFailedError(violations, 'Some automations are invalid.');
      await this.store.insertAutomations(rows);
      return Object.fromEntries(rows.map((row) => [row.name, row.id]));
    });
  }

  private notFound(at: string, reference: { stageId?: string | null; pipelineSlug?: string | null; stageSlug?: string | null }): FieldViolation {
    const field = reference.stageId ? 'stage_id' : reference.stageSlug ? 'stage_slug' : 'pipeline_slug';
    return { field: `${at}.${field}`, reason: 'not_found_in_tenant', message: 'No such stage or pipeline in the account.' };
  }

  private async toStoredStep(accountId: ProvisionAutomationsCommand['accountId'], step: AutomationStepSpec, at: string, violations: FieldViolation[]): Promise<StoredStep | null> {
    switch (step.type) {
      case 'add_tag':
      case 'remove_tag':
        return { type: step.type, tag: (step.tag as string).trim() };
      case 'send_email':
        return { type: 'send_email', subject: step.subject as string, body: step.body as string };
      case 'wait':
        return { type: 'wait', seconds: step.seconds as number };
      case 'webhook':
        return { type: 'webhook', event: step.event as string };
      case 'move_to_stage': {
        const reference = { stageId: step.stageId, pipelineSlug: step.pipelineSlug, stageSlug: step.stageSlug };
        const stage = await this.collaborators.resolveStage(accountId, reference);
        if (!stage || stage.stageId === null) {
          violations.push(this.notFound(at, reference));
          return null;
        }
        return { type: 'move_to_stage', stage_id: stage.stageId, pipeline_id: stage.pipelineId, accepts_disqualified_leads: 'acceptsDisqualifiedLeads' in stage ? stage.acceptsDisqualifiedLeads : false };
      }
    }
  }
}
