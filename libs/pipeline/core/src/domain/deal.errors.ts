import { ResourceNotFoundError } from '@leadflow/shared-kernel';

/** 404 `not_found` (`details.resource` `stage`, `details.field` `stage_id`): no such stage in the account. */
export class StageNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'No such stage.', { resource: 'stage', field: 'stage_id' });
  }
}

/**
 * 404 `not_found` (`details.resource` `deal`): no contact of the account with a stage set under this id.
 * Same envelope as the contacts context's refusal of MoveContactToStageCommand with `requireDeal`.
 */
export class DealNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'No such deal.', { resource: 'deal' });
  }
}
