import { InvalidRequestError } from '@leadflow/shared-kernel';

/** A single-valued query parameter; repeated gives 400 `invalid_request` (`details.field`). */
export function stringParam(query: Record<string, unknown>, name: string): string | null {
  const value = query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new InvalidRequestError(name, 'invalid_value', `${name} must be given once.`);
  return value;
}
