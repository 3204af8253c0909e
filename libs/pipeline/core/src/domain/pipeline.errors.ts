import { FieldViolation, ValidationFailedError } from '@leadflow/shared-kernel';

/** 400 `validation_error`: pipelines or stages breaking a provisioning rule (every breach listed). */
export class InvalidPipelinesError extends ValidationFailedError {
  constructor(violations: FieldViolation[]) {
    super(violations, 'The pipelines are invalid.');
  }
}
