import { DomainError, ResourceNotFoundError } from '@leadflow/shared-kernel';

/**
 * Errors of the automations context: DomainError subclasses (`@leadflow/shared-kernel`) with stable codes
 * from the spec (public-api-v1 › Endpoints › Automations); the HTTP status comes from the code
 * (shared-platform's error catalog).
 */

/** 404 `not_found`: the automation is missing, archived or another account's (`details.resource` `automation`). */
export class AutomationNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'Automation not found.', { resource: 'automation' });
  }
}

/** 404 `not_found`: the contact is missing, archived, merged or another account's (`details.resource` `contact`, `field` `contact_id`). */
export class AutomationContactNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'Contact not found.', { resource: 'contact', field: 'contact_id' });
  }
}

/** 409 `automation_inactive`. */
export class AutomationInactiveError extends DomainError {
  constructor() {
    super('automation_inactive', 'The automation is inactive.');
  }
}

/** 409 `automation_not_published`. */
export class AutomationNotPublishedError extends DomainError {
  constructor() {
    super('automation_not_published', 'The automation is not published.');
  }
}

/** 409 `no_trigger`: the automation has no trigger node. */
export class NoTriggerError extends DomainError {
  constructor() {
    super('no_trigger', 'The automation has no trigger.');
  }
}

/** 409 `already_enrolled` with `details.execution_id` of the active run. */
export class AlreadyEnrolledError extends DomainError {
  constructor(executionId: string) {
    super('already_enrolled', 'The contact is already in an active run of this automation.', { execution_id: executionId });
  }
}

/** Which trigger limit refused the call (public-api-v1 › Limits › Trigger throttle). */
export type TriggerThrottleLimit = 'duplicate_trigger' | 'contact_daily_enrolments' | 'account_hourly_executions';

/**
 * 429 `trigger_throttled`: `details` `{ limit, max, window_seconds, retry_after_seconds }`; also a
 * `Retry-After` header (seconds).
 */
export class TriggerThrottledError extends DomainError {
  constructor(limit: TriggerThrottleLimit, max: number, windowSeconds: number, retryAfterSeconds: number) {
    const retry = Math.max(1, Math.ceil(retryAfterSeconds));
    super(
      'trigger_throttled',
      {
        duplicate_trigger: 'The same trigger (automation, contact, event_data) was accepted less than 5 minutes ago.',
        contact_daily_enrolments: 'This contact was enrolled 5 times in this automation in the last 24 hours.',
        account_hourly_executions: 'The account started 200 executions in the last hour.',
      }[limit],
      { limit, max, window_seconds: windowSeconds, retry_after_seconds: retry },
      { headers: { 'Retry-After': String(retry) } },
    );
  }
}

/** A step the engine could not run for a business reason: the execution becomes `failed` (no retry). */
export class StepFailedError extends DomainError {
  constructor(reason: string, message: string) {
    super('step_failed', message, { reason });
  }
}
