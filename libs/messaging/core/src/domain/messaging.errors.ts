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
