import { ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldViolation, ValidationFailedError } from '@leadflow/shared-kernel';

/** class-validator constraint names → the spec's `details[].reason` values. */
const REASON_BY_CONSTRAINT: Record<string, string> = {
  isDefined: 'required',
  isNotEmpty: 'required',
  whitelistValidation: 'unknown_field',
  isString: 'invalid_type',
  isBoolean: 'invalid_type',
  isInt: 'invalid_type',
  isNumber: 'invalid_type',
  isArray: 'invalid_type',
  isObject: 'invalid_type',
  nestedValidation: 'invalid_type',
  maxLength: 'too_long',
  minLength: 'too_short',
  arrayMaxSize: 'too_many',
  arrayMinSize: 'too_few',
  max: 'out_of_range',
  min: 'out_of_range',
  isPositive: 'out_of_range',
  isEmail: 'invalid_format',
  isUuid: 'invalid_format',
  isUUID: 'invalid_format',
  matches: 'invalid_format',
  isHexColor: 'invalid_format',
  isUrl: 'invalid_format',
  isDateString: 'invalid_datetime',
  isIso8601: 'invalid_datetime',
  isISO8601: 'invalid_datetime',
  isIn: 'invalid_value',
  isEnum: 'invalid_value',
  unknownValue: 'invalid_type',
};

/** Flattens class-validator errors into `{ field, reason, message }` with dotted field paths. */
export function toFieldViolations(errors: ValidationError[], parent = ''): FieldViolation[] {
  const violations: FieldViolation[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0) {
      // The first failing constraint is the most specific one (decorators apply bottom-up).
      const [name, message] = constraints[constraints.length - 1];
      const reason = error.contexts?.[name]?.reason ?? REASON_BY_CONSTRAINT[name] ?? 'invalid_value';
      violations.push({ field, reason: String(reason), message });
    }
    if (error.children?.length) violations.push(...toFieldViolations(error.children, field));
  }
  return violations;
}

/**
 * The global ValidationPipe: unknown fields are refused (`unknown_field`), values are transformed to
 * the DTO classes, and failures become 400 `validation_error` with `details` an array of
 * `{ field, reason, message }`. A body that is not a JSON object fails with field `""`.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const violations = toFieldViolations(errors);
      return new ValidationFailedError(
        violations.length > 0 ? violations : [{ field: '', reason: 'invalid_type', message: 'The body must be a JSON object.' }],
      );
    },
  });
}
