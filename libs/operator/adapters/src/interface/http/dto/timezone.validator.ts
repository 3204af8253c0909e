import { IANAZone } from 'luxon';
import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';

/** An IANA time zone luxon knows (`America/Montreal`); failures read reason `invalid_timezone`. */
export function IsIanaTimezone(options: ValidationOptions = {}): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIanaTimezone',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && IANAZone.isValidZone(value),
        defaultMessage: buildMessage((each) => `${each}$property must be an IANA time zone such as America/Montreal`, options),
      },
    },
    { ...options, context: { reason: 'invalid_timezone' } },
  );
}
