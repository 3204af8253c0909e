import { Module } from '@nestjs/common';
import { AutomationsCoreModule } from './automations-core.module';
import { WorkerOnlyExecutionScheduler } from './infrastructure/engine/worker-only-execution.scheduler';
import { AutomationsController } from './interface/http/automations.controller';

/**
 * The automations context for the api app: `/v1/automations` (list, history, manual trigger) and the
 * published commands `ProvisionAutomationsCommand` (operator blueprint) and `EnrolCustomEventCommand`
 * (POST /v1/events); handlers and ports from AutomationsCoreModule. Executions are handed to the worker
 * through the outbox (the api has no queue, hence its refusing engine scheduler).
 */
@Module({
  imports: [AutomationsCoreModule.register({ scheduler: WorkerOnlyExecutionScheduler })],
  controllers: [AutomationsController],
})
export class AutomationsHttpModule {}
