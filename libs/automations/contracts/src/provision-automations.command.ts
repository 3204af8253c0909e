import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { AutomationSpec } from './automation-blueprint';

/**
 * Creates the account's automations (operator blueprint member `automations`) inside the caller's
 * unit of work and returns `{ <name>: <automation id> }`. Stage references (`move_to_stage` steps,
 * `stage_changed` filters) are resolved against the account's pipelines, so pipelines must be
 * provisioned first in the same transaction. Throws 400 `validation_error` with `details[].field`
 * such as `automations[0].steps[1].subject` (reasons `required`, `invalid_value`, `too_long`,
 * `duplicate`, `unknown_event_type`, `not_found_in_tenant`, `exclusive_field`).
 */
export class ProvisionAutomationsCommand extends Command<Record<string, string>> {
  constructor(
    readonly accountId: AccountId,
    readonly automations: readonly AutomationSpec[],
  ) {
    super();
  }
}
