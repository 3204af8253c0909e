import { BusinessRuleViolationError, DomainError, ResourceNotFoundError, ValidationFailedError } from '@leadflow/shared-kernel';

/**
 * Errors of the webhooks context: DomainError subclasses (`@leadflow/shared-kernel`) with stable codes
 * from the spec; the HTTP status comes from the code (shared-platform's error catalog).
 */

/** Limit on webhook subscriptions (public-api-v1 › Limits): 10 per account across all keys. */
export const MAX_SUBSCRIPTIONS_PER_ACCOUNT = 10;

/** 429 `subscription_limit_reached` with `details.limit` (10): the account already has 10 subscriptions. */
export class SubscriptionLimitReachedError extends DomainError {
  constructor() {
    super(
      'subscription_limit_reached',
      `An account may have at most ${MAX_SUBSCRIPTIONS_PER_ACCOUNT} webhook subscriptions (all keys together).`,
      { limit: MAX_SUBSCRIPTIONS_PER_ACCOUNT },
    );
  }
}

/** 404 `not_found` `{ resource: 'webhook' }`: missing, another account's or another key's subscription (all alike). */
export class WebhookSubscriptionNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'No such webhook subscription.', { resource: 'webhook' });
  }
}

/** 400 `validation_error` `[{ field: 'url', reason }]`: the target is not acceptable (see `validateWebhookUrl`). */
export class InvalidWebhookTargetError extends ValidationFailedError {
  constructor(reason: string, message: string) {
    super([{ field: 'url', reason, message }], message);
  }
}

/** 404 `not_found` `{ resource: 'webhook_delivery' }`: missing, or another subscription's, key's or account's delivery (all alike). */
export class WebhookDeliveryNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'No such webhook delivery.', { resource: 'webhook_delivery' });
  }
}

/** 422 `business_rule_violation` `{ reason: 'webhook_disabled', disabled_reason }`: a disabled subscription gets no attempt (create it again to resume). */
export class WebhookDisabledError extends BusinessRuleViolationError {
  constructor(disabledReason: string) {
    super('webhook_disabled', 'This webhook subscription is disabled; create it again to resume deliveries.', { disabled_reason: disabledReason });
  }
}
