import { Module } from '@nestjs/common';
import { AUTOMATIONS_HANDLERS } from '@leadflow/automations-core';
import { AutomationsController } from './interface/http/automations.controller';
import { AUTOMATIONS_PERSISTENCE_PROVIDERS } from './automations-persistence.providers';

/**
 * The automations context for the api app: `/v1/automations` (list, history, manual trigger) and the
 * published commands `ProvisionAutomationsCommand` (operator blueprint) and `EnrolCustomEventCommand`
 * (POST /v1/events). Executions are handed to the worker through the outbox.
 */
@Module({
  controllers: [AutomationsController],
  providers: [...AUTOMATIONS_HANDLERS, ...AUTOMATIONS_PERSISTENCE_PROVIDERS],
})
export class AutomationsHttpModule {}
