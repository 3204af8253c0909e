import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { Actor, InvalidRequestError } from '@leadflow/shared-kernel';

/** The actor of a write made with an API key (public-api-v1 › Outbound webhooks: `via` `api_key`, named after the key). */
export function actorOf(key: ApiKeyPrincipal): Actor {
  return { type: 'api_key', id: key.keyId, name: key.keyName, via: 'api_key' };
}

/** A single-valued query parameter; repeated gives 400 `invalid_request` (`details.field`). */
export function stringParam(query: Record<string, unknown>, name: string): string | null {
  const value = query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new InvalidRequestError(name, 'invalid_value', `${name} must be given once.`);
  return value;
}
