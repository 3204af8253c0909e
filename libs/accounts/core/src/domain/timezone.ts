import { IANAZone } from 'luxon';
import { ValidationFailedError } from '@leadflow/shared-kernel';

/** Throws 400 `validation_error` (reason `invalid_timezone`) unless `value` is an IANA time zone luxon knows. */
export function assertTimezone(value: string, field = 'timezone'): void {
  if (!IANAZone.isValidZone(value)) {
    throw new ValidationFailedError([{ field, reason: 'invalid_timezone', message: `"${value.slice(0, 64)}" is not an IANA time zone.` }]);
  }
}
