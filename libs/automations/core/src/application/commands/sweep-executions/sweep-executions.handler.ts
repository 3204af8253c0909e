import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { ExecutionScheduler } from '../../ports/automation-effects.port';
import { AutomationStore } from '../../ports/automation-store.port';
import { SweepExecutionsCommand } from './sweep-executions.command';
import { ExecutionEngineSettings } from '../../engine/execution-engine.settings';
import { waitJobKey } from '../run-execution/run-execution.handler';

/**
 * Crash recovery (worker, every `sweepIntervalMs`): executions `running` whose lease expired (the
 * worker died mid-step, or its retries are spent), `waiting` past `resume_at` + grace (delayed job
 * lost) and `pending` older than the grace (hand-off lost) are queued again. Job keys are
 * deterministic per minute (`r<retry_count>.m<minute>`, `w<step>.m<minute>`, `s0.m<minute>`), so the
 * sweeps of one minute add one job and a later minute may add another if the first one found nothing
 * to do; the run itself re-checks the lease, so a duplicate job is a no-op.
 */
@CommandHandler(SweepExecutionsCommand)
export class SweepExecutionsHandler implements ICommandHandler<SweepExecutionsCommand> {
  constructor(
    private readonly store: AutomationStore,
    private readonly scheduler: ExecutionScheduler,
    private readonly settings: ExecutionEngineSettings,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ requeued: number }> {
    const stale = await this.store.findStale(this.settings.staleGraceMs, 100);
    const minute = Math.floor(this.clock.now().getTime() / 60_000);
    for (const execution of stale) {
      const key = execution.status === 'running' ? `r${execution.retryCount}` : execution.status === 'waiting' ? waitJobKey(execution.stepIndex - 1) : 's0';
      await this.scheduler.schedule(execution.accountId, execution.id, `${key}.m${minute}`, 0);
    }
    return { requeued: stale.length };
  }
}
