import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountId, Actor, Clock, DomainError, Journal, UnitOfWork, newId } from '@leadflow/shared-kernel';
import { AUTOMATION_EVENTS, AutomationCompletedPayload, AutomationWebhookStepPayload } from '@leadflow/automations-contracts';
import type { StoredStep } from '../../../domain/automation-definition';
import { StepFailedError } from '../../../domain/automations.errors';
import { renderTemplate } from '../../../domain/template';
import { AutomationCollaborators, AutomationContact } from '../../ports/automation-effects.port';
import { ExecutionScheduler } from '../../ports/automation-effects.port';
import { AutomationStore, ExecutionRun } from '../../ports/automation-store.port';
import { RunExecutionCommand } from './run-execution.command';
import { ExecutionEngineSettings } from '../../engine/execution-engine.settings';

type StepOutcome = { kind: 'next' } | { kind: 'wait'; index: number; seconds: number } | { kind: 'done' } | { kind: 'lost' };

/** Job key of the resume after the `wait` step at `index`. */
export const waitJobKey = (index: number) => `w${index}`;

/**
 * The step engine (worker). The execution row is the source of truth; a BullMQ job only says "look
 * at execution X". A run:
 * 1. takes the lease (`pending`, `waiting`, or `running` whose lease expired → `running`; the last
 *    case is a restart after a crash or failure: `retry_count` + 1; beyond `maxRetries`: `failed`
 *    `retries_exhausted`), renewed every third of the lease while it runs;
 * 2. runs the steps from the persisted cursor, each in its own transaction that checks the lease is
 *    still held, applies the step's effect (contacts, messaging, outbox), writes the per-step marker
 *    and moves the cursor: a step's effect and its marker commit together, so a restarted run never
 *    repeats a finished step;
 * 3. `wait`: the cursor moves past it, status `waiting` with `resume_at`, and a delayed job resumes the
 *    run at the next step (the sweeper re-queues it if that job is lost);
 * 4. after the last step: `completed` and `automation_completed` in the outbox, in one transaction.
 * A business refusal of a step (DomainError: no email address, contact archived, no sender…) makes the
 * execution `failed` with `error` `{ step_index, step_type, code, message }`; any other error releases
 * the lease and is rethrown so BullMQ retries (the retry counts as a restart).
 */
@CommandHandler(RunExecutionCommand)
export class RunExecutionHandler implements ICommandHandler<RunExecutionCommand> {
  constructor(
    private readonly store: AutomationStore,
    private readonly outbox: Journal,
    private readonly unitOfWork: UnitOfWork,
    private readonly collaborators: AutomationCollaborators,
    private readonly scheduler: ExecutionScheduler,
    private readonly settings: ExecutionEngineSettings,
    private readonly clock: Clock,
  ) {}

  async execute({ executionId }: RunExecutionCommand): Promise<{ status: string }> {
    const token = newId();
    const run = await this.store.acquire(executionId, token, this.settings.leaseMs, this.clock.now());
    if (!run) return { status: 'skipped' };
    if (run.restarted && run.retryCount > this.settings.maxRetries) {
      await this.fail(run, token, { step_index: run.stepIndex, step_type: run.steps[run.stepIndex]?.type ?? null, code: 'retries_exhausted', message: 'The run was restarted too many times.' });
      return { status: 'failed' };
    }
    let lost = false;
    let renewing = false; // one renewal at a time (it waits while a step holds the row lock)
    const heartbeat = setInterval(() => {
      if (renewing) return;
      renewing = true;
      this.store
        .renewLease(executionId, token, this.settings.leaseMs)
        .then(
          (held) => (lost = lost || !held),
          () => undefined, // database unreachable: the lease runs out and another worker restarts the run
        )
        .finally(() => (renewing = false));
    }, Math.max(50, Math.floor(this.settings.leaseMs / 3)));
    try {
      const contact = await this.collaborators.contact(run.accountId as AccountId, run.contactId);
      for (;;) {
        if (lost) return { status: 'lost' };
        const outcome = await this.unitOfWork.run(() => this.nextStep(run, token, contact));
        if (outcome.kind === 'next') continue;
        if (outcome.kind === 'wait') {
          await this.scheduler.schedule(run.accountId, run.id, waitJobKey(outcome.index), outcome.seconds * 1000);
          return { status: 'waiting' };
        }
        return { status: outcome.kind === 'done' ? 'completed' : 'lost' };
      }
    } catch (error) {
      if (error instanceof DomainError) {
        const current = await this.store.lockOwned(run.id, token).catch(() => null);
        const index = current?.stepIndex ?? run.stepIndex;
        await this.fail(run, token, { step_index: index, step_type: run.steps[index]?.type ?? null, code: error.code, message: error.message, details: error.details });
        return { status: 'failed' };
      }
      await this.store.releaseLease(run.id, token).catch(() => undefined);
      throw error;
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async fail(run: ExecutionRun, token: string, error: Record<string, unknown>): Promise<void> {
    await this.unitOfWork.run(async () => {
      if (!(await this.store.lockOwned(run.id, token))) return;
      await this.store.markFailed(run.id, error, this.clock.now());
    });
  }

  /** One transaction: the next step (or the completion), under the row lock and the lease. */
  private async nextStep(run: ExecutionRun, token: string, contact: AutomationContact | null): Promise<StepOutcome> {
    const current = await this.store.lockOwned(run.id, token);
    if (!current) return { kind: 'lost' };
    const index = current.stepIndex;
    const now = this.clock.now();
    if (index >= current.steps.length) {
      await this.store.markCompleted(run.id, now);
      const payload: AutomationCompletedPayload = {
        automation_id: run.automationId,
        automation_name: run.automationName,
        execution_id: run.id,
        contact_id: run.contactId,
        trigger_type: run.triggerType,
        retry_count: current.retryCount,
        completed_at: now.toISOString(),
      };
      await this.outbox.publish([{ id: newId(), type: AUTOMATION_EVENTS.completed, accountId: run.accountId, occurredAt: now, payload, actor: this.actorOf(run) }]);
      return { kind: 'done' };
    }
    const step = current.steps[index];
    if (step.type === 'wait') {
      const resumeAt = await this.store.markWaiting(run.id, step.seconds, now);
      await this.store.recordStep(current, index, { resume_at: resumeAt.toISOString() }, now);
      return { kind: 'wait', index, seconds: step.seconds };
    }
    if (!contact) throw new StepFailedError('contact_not_found', 'The contact no longer exists.');
    if (contact.archived) throw new StepFailedError('contact_archived', 'The contact is archived.');
    const result = await this.apply(step, current, contact);
    await this.store.recordStep(current, index, result, now);
    return { kind: 'next' };
  }

  private actorOf(run: ExecutionRun): Actor {
    return { type: 'automation', id: run.automationId, name: run.automationName, via: null };
  }

  private async apply(step: Exclude<StoredStep, { type: 'wait' }>, run: ExecutionRun, contact: AutomationContact): Promise<Record<string, unknown>> {
    const accountId = run.accountId as AccountId;
    switch (step.type) {
      case 'add_tag': {
        const { tagId, added } = await this.collaborators.addTag(accountId, contact.id, step.tag, this.actorOf(run));
        return { tag_id: tagId, added };
      }
      case 'remove_tag':
        return this.collaborators.removeTag(accountId, contact.id, step.tag, this.actorOf(run));
      case 'send_email': {
        if (!contact.email) throw new StepFailedError('contact_without_email', 'The contact has no email address.');
        const values = { contact: { ...contact } as Record<string, unknown>, event: run.eventData };
        const subject = renderTemplate(step.subject, values, false).replace(/[\r\n]+/g, ' ').slice(0, 998);
        const html = renderTemplate(step.body, values, true);
        const { emailId } = await this.collaborators.queueEmail(accountId, { to: contact.email, subject, html, contactId: contact.id, executionId: run.id });
        return { email_id: emailId };
      }
      case 'move_to_stage': {
        const { changed } = await this.collaborators.moveToStage(
          accountId,
          contact.id,
          { pipelineId: step.pipeline_id, stageId: step.stage_id, acceptsDisqualifiedLeads: step.accepts_disqualified_leads },
          this.actorOf(run),
        );
        return { stage_id: step.stage_id, changed };
      }
      case 'webhook': {
        const eventId = newId();
        const payload: AutomationWebhookStepPayload = {
          source: 'automation_webhook_step',
          automation_id: run.automationId,
          automation_name: run.automationName,
          execution_id: run.id,
          contact_id: contact.id,
          event_data: run.eventData,
        };
        await this.outbox.publish([{ id: eventId, type: step.event, accountId: run.accountId, occurredAt: this.clock.now(), payload, actor: this.actorOf(run) }]);
        return { event_id: eventId, event: step.event };
      }
    }
  }
}
