import { BusinessRuleViolationError, DomainError, ResourceNotFoundError } from '@leadflow/shared-kernel';

/** 404 `not_found` (`details.resource` `deal`): no contact of the account with a stage set under this id (missing, merged, another account's, or no stage). */
export class DealNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'No such deal.', { resource: 'deal' });
  }
}

/** 422 `business_rule_violation` reason `contact_archived`: an archived contact's stage does not change. */
export class ArchivedContactStageError extends BusinessRuleViolationError {
  constructor() {
    super('contact_archived', 'The contact is archived: its pipeline stage cannot change.');
  }
}

/** 422 `business_rule_violation` reason `other_pipeline` (`details.field` `stage_id`): the contact is in a stage of another pipeline. */
export class OtherPipelineError extends BusinessRuleViolationError {
  constructor() {
    super('other_pipeline', "The contact is in another pipeline than the stage's.", { field: 'stage_id' });
  }
}

/** 409 `lead_disqualified` (`details.field` `stage_id`): a disqualified lead only goes to a lost stage or the disqualification stage. */
export class LeadDisqualifiedError extends DomainError {
  constructor() {
    super('lead_disqualified', 'The lead is disqualified: it can only be moved to a lost stage or to the disqualification stage.', {
      field: 'stage_id',
    });
  }
}
