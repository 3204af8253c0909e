import { Query } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from './api-key-principal';

/**
 * Published query of the accounts context: resolves a raw bearer key (`lf_live_<prefix>_<secret>`)
 * to its principal, or null when the key is malformed, unknown, revoked or expired. One indexed
 * lookup by prefix, secret compared by hash in constant time.
 */
export class ResolveApiKeyQuery extends Query<ApiKeyPrincipal | null> {
  constructor(readonly rawKey: string) {
    super();
  }
}
