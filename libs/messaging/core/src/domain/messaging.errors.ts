import { FieldViolation, ValidationFailedError } from '@leadflow/shared-kernel';

/** 400 `validation_error`: senders breaking a provisioning rule (every breach listed). */
export class InvalidSendersError extends ValidationFailedError {
  constructor(violations: FieldViolation[]) {
    super(violations, 'The senders are invalid.');
  }
}
