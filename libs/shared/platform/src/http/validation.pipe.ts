import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidatorOptions } from 'class-validator';
import { FieldViolation, ValidationFailedError } from '@leadflow/shared-kernel';
import { nullViolations } from './nullable';

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

/**
 * Flattens class-validator errors into `{ field, reason, message }` with dotted field paths and array indices in brackets (`pipelines[0].stages[1].slug`). A
 * property that is absent (`undefined`) reads `required`, whatever rule it failed; a constraint may
 * name its own reason with `context: { reason }`.
 */
export function toFieldViolations(errors: ValidationError[], parent = ''): FieldViolation[] {
  const violations: FieldViolation[] = [];
  for (const error of errors) {
    const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0) {
      // The first failing constraint is the most specific one (decorators apply bottom-up).
      const [name, message] = constraints[constraints.length - 1];
      const absent = 'value' in error && (error.value === undefined || (error.value === null && 'isDefined' in (error.constraints ?? {}))) && name !== 'whitelistValidation';
      const reason = error.contexts?.[name]?.reason ?? (absent ? 'required' : name === 'isLength' ? lengthReason(message) : REASON_BY_CONSTRAINT[name] ?? 'invalid_value');
      violations.push({ field, reason: String(reason), message });
    }
    if (error.children?.length) violations.push(...toFieldViolations(error.children, field));
  }
  return violations;
}

/** `@Length(min, max)` names the failed bound only in its message ("shorter than" when too long). */
function lengthReason(message: string): string {
  return message.includes('shorter than') ? 'too_long' : 'too_short';
}

const NOT_AN_OBJECT: FieldViolation = { field: '', reason: 'invalid_type', message: 'The body must be a JSON object.' };

/**
 * The global pipe. Bodies validated against a DTO class must be JSON objects: an array, a string, a
 * number, `true` or `null` fails as a whole with field `""` (a missing body is validated as `{}`, so
 * each required field is reported). `null` is accepted only on properties declared `@Nullable()`
 * (see nullViolations): everywhere else it is 400 `validation_error` naming the field, reported with
 * the other violations of the body.
 */
class LeadflowValidationPipe extends ValidationPipe {
  protected override async validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> {
    const errors = await super.validate(object, options);
    const nulls = nullViolations(object);
    if (nulls.length === 0) return errors;
    // A null is reported as such (`invalid_type` / `required`), not by the rule it then failed (`invalid_format`, `too_few`, `each value in …`).
    const nullFields = new Set(nulls.map((violation) => violation.field.replace(/\[\d+\]$/, '')));
    const others = toFieldViolations(errors).filter((violation) => !nullFields.has(violation.field));
    throw new ValidationFailedError([...others, ...nulls]);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const wholeBody = metadata.type === 'body' && !metadata.data && metadata.metatype !== undefined && this.toValidate(metadata);
    if (wholeBody && value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new ValidationFailedError([NOT_AN_OBJECT]);
    }
    const transformed = await super.transform(value, metadata);
    if (wholeBody && transformed !== null && typeof transformed === 'object') {
      const violations = nestedShapeViolations(transformed as object, '');
      if (violations.length > 0) throw new ValidationFailedError(violations);
    }
    return transformed;
  }
}

/**
 * class-validator's `@ValidateNested({ each: true })` walks an array element that is itself an array
 * (`"pipelines": [[]]`) as a list of nothing, and lets it through to the handler (a 500, issue 12 item 4).
 * One rule for every DTO: each value under a nested-validation property must be an object (each element
 * when `each`), else 400 `validation_error`, reason `invalid_type`, at its path; objects are walked down.
 */
function nestedShapeViolations(instance: object, path: string): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const nested = getMetadataStorage()
    .getTargetValidationMetadatas(instance.constructor, '', true, false)
    .filter((meta) => meta.type === ValidationTypes.NESTED_VALIDATION);
  for (const meta of nested) {
    const value = (instance as Record<string, unknown>)[meta.propertyName];
    if (value === undefined || value === null) continue;
    const field = path ? `${path}.${meta.propertyName}` : meta.propertyName;
    const elements: [unknown, string][] = meta.each && Array.isArray(value) ? value.map((element, index) => [element, `${field}[${index}]`]) : [[value, field]];
    for (const [element, elementPath] of elements) {
      if (element === null || typeof element !== 'object' || Array.isArray(element)) {
        violations.push({ field: elementPath, reason: 'invalid_type', message: `${elementPath} must be an object.` });
      } else {
        violations.push(...nestedShapeViolations(element, elementPath));
      }
    }
  }
  return violations;
}

/**
 * The global ValidationPipe: unknown fields are refused (`unknown_field`), values are transformed to
 * the DTO classes, and failures become 400 `validation_error` with `details` an array of
 * `{ field, reason, message }`. A body that is not a JSON object fails with field `""`.
 * (Failing values are kept on the errors only to tell an absent field; they are never rendered.)
 */
export function createValidationPipe(): ValidationPipe {
  return new LeadflowValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => {
      const violations = toFieldViolations(errors);
      return new ValidationFailedError(violations.length > 0 ? violations : [NOT_AN_OBJECT]);
    },
  });
}
