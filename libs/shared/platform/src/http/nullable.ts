import { applyDecorators } from '@nestjs/common';
import { getMetadataStorage, IsOptional, ValidationTypes } from 'class-validator';
import type { FieldViolation } from '@leadflow/shared-kernel';

const NULLABLE = Symbol('leadflow:nullable');

/**
 * Marks a request-body property as documented nullable (`type: [T, "null"]` in the OpenAPI
 * descriptions): `null` is accepted and carries the documented meaning (clear the value, or, on lead
 * capture and presuasion submissions, "not sent"); an absent member is skipped as with `@IsOptional()`.
 * Every other property refuses `null` (see {@link nullViolations}): `@IsOptional()` alone means
 * "may be absent", never "may be null".
 */
export function Nullable(): PropertyDecorator {
  return applyDecorators(IsOptional(), (target: object, property: string | symbol) => {
    const own: Set<string | symbol> = Reflect.getOwnMetadata(NULLABLE, target) ?? new Set(Reflect.getMetadata(NULLABLE, target) ?? []);
    own.add(property);
    Reflect.defineMetadata(NULLABLE, own, target);
  });
}

/** Whether `property` of instances of `type` was declared {@link Nullable} (inherited declarations count). */
export function isNullableProperty(type: object, property: string): boolean {
  const declared: Set<string | symbol> | undefined = Reflect.getMetadata(NULLABLE, (type as { prototype: object }).prototype ?? type);
  return declared?.has(property) ?? false;
}

/**
 * The one `null` rule of request bodies (public-api-v1 › Resources: "string or null" fields; the
 * operator API likewise): walks a validated DTO instance and its nested DTOs (`@ValidateNested`,
 * arrays included) and reports every property whose value is `null` without being declared
 * {@link Nullable}: reason `required` when the property is required (no `@IsOptional`/`@ValidateIf`),
 * `invalid_type` otherwise; a `null` element of a list with per-element rules is `invalid_type` at its
 * index. Field paths are dotted, array indices in brackets (`inputs[2].email`).
 */
export function nullViolations(instance: object, path = ''): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(instance.constructor, '', true, false);
  const optional = new Set(metadatas.filter((meta) => meta.type === ValidationTypes.CONDITIONAL_VALIDATION).map((meta) => meta.propertyName));
  const nested = new Set(metadatas.filter((meta) => meta.type === ValidationTypes.NESTED_VALIDATION).map((meta) => meta.propertyName));
  const perElement = new Set(metadatas.filter((meta) => meta.each === true).map((meta) => meta.propertyName));
  for (const [property, value] of Object.entries(instance)) {
    const field = path ? `${path}.${property}` : property;
    if (value === null) {
      if (isNullableProperty(instance.constructor, property)) continue;
      const reason = optional.has(property) ? 'invalid_type' : 'required';
      violations.push({ field, reason, message: `${field} cannot be null.` });
      continue;
    }
    if (Array.isArray(value) && perElement.has(property)) {
      // An element of a list with per-element rules (`@IsString({ each: true })`) is never null.
      value.forEach((element, index) => {
        if (element === null) violations.push({ field: `${field}[${index}]`, reason: 'invalid_type', message: `${field}[${index}] cannot be null.` });
      });
    }
    if (!nested.has(property) || typeof value !== 'object') continue;
    const elements: [unknown, string][] = Array.isArray(value) ? value.map((element, index) => [element, `${field}[${index}]`]) : [[value, field]];
    for (const [element, elementPath] of elements) {
      if (element !== null && typeof element === 'object' && !Array.isArray(element) && element.constructor !== Object) {
        violations.push(...nullViolations(element, elementPath));
      }
    }
  }
  return violations;
}
