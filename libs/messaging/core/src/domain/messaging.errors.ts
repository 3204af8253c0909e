import { DomainError, FieldViolation, ValidationFailedError } from '@leadflow/shared-kernel';

/** 400 `validation_error`: senders breaking a provisioning rule (every breach listed). */
export class InvalidSendersError extends ValidationFailedError {
  constructor(violations: FieldViolation[]) {
    super(violations, 'The senders are invalid.');
  }
}

/** 400 `validation_error`: an outgoing email breaking a rule of QueueEmailCommand (every breach listed). */
export class InvalidOutgoingEmailError extends ValidationFailedError {
  constructor(violations: FieldViolation[]) {
    super(violations, 'The email is invalid.');
  }
}

/** 400 `no_sender_configured`: no `from` given and the account has no default sender. */
export class NoSenderConfiguredError extends DomainError {
  constructor() {
    super('no_sender_configured', 'The account has no default sender: configure one before sending emails.', null);
  }
}

/** 400 `recipient_not_allowed`: a test send whose recipient is not an active team member of the account. */
export class RecipientNotAllowedError extends DomainError {
  constructor() {
    super('recipient_not_allowed', 'A test email can only be sent to an active team member of the account.', { field: 'to', reason: 'not_a_team_member' });
  }
}

/** 409 `recipient_unsubscribed`: the recipient address is on the account's unsubscribe list (real sends only). */
export class RecipientUnsubscribedError extends DomainError {
  constructor() {
    super('recipient_unsubscribed', 'The recipient unsubscribed from emails.', { field: 'to' });
  }
}

/**
 * 429 `test_quota_exceeded`: the account already made `limit` test sends in the rolling 24 hours
 * (shared by `POST /v1/emails/send` with `test` and the platform's test buttons). `Retry-After` and
 * `details.retry_after_seconds`: when the oldest test send of the window leaves it.
 */
export class TestQuotaExceededError extends DomainError {
  constructor(limit: number, used: number, retryAfterSeconds: number) {
    super(
      'test_quota_exceeded',
      `At most ${limit} test emails per rolling 24 hours.`,
      { limit, used, window_seconds: 24 * 60 * 60, retry_after_seconds: retryAfterSeconds },
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    );
  }
}

/** 404 `resource_not_found`: the conversation is missing, another account's or the id is not a UUID (all alike). */
export class ConversationNotFoundError extends DomainError {
  constructor() {
    super('resource_not_found', 'No such conversation.', { resource: 'conversation' });
  }
}

/** 400 `validation_error`: blueprint conversations breaking a rule (every breach listed). */
export class InvalidConversationsError extends ValidationFailedError {
  constructor(violations: FieldViolation[]) {
    super(violations, 'The conversations are invalid.');
  }
}
