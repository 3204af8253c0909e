import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { TriggeredExecutionView } from '../../views';

/**
 * `POST /v1/automations/{id}/trigger` (public-api-v1 › Endpoints › Automations): creates a `pending`
 * execution with trigger_type `manual_api`. See TriggerAutomationHandler for the checks and codes.
 */
export class TriggerAutomationCommand extends Command<TriggeredExecutionView> {
  constructor(
    readonly accountId: AccountId,
    readonly automationId: string,
    readonly contactId: string,
    readonly eventData: Record<string, unknown>,
    readonly actor: Actor,
  ) {
    super();
  }
}
