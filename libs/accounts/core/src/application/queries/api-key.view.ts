import { ApiKeyPrincipal, ApiKeyView, inferPreset } from '@leadflow/accounts-contracts';
import { lifecycleOf } from '../../domain/api-key-lifecycle';
import { API_KEY_FORMAT_VERSION } from '../../domain/api-key-secret.value-object';

/**
 * `GET /v1/me` data (public-api-v1 › API key) from the key that authenticated the request, with no further
 * read: the principal is resolved (and cached) by authentication. `last_used_at` is `now`, the instant of
 * this very use (stored uses are written at most once a minute); `lifecycle_state` is `active` for any key
 * that authenticates, computed from the clock all the same.
 */
export function toApiKeyView(key: ApiKeyPrincipal, now: Date): ApiKeyView {
  return {
    key_id: key.keyId,
    key_name: key.keyName,
    key_prefix: key.keyPrefix,
    key_format_version: API_KEY_FORMAT_VERSION,
    client_id: key.accountId,
    client_name: key.accountName,
    scopes: key.scopes,
    preset: inferPreset(key.scopes),
    lifecycle_state: lifecycleOf({ revokedAt: null, expiresAt: key.expiresAt }, now),
    created_at: key.createdAt.toISOString(),
    last_used_at: now.toISOString(),
    expires_at: key.expiresAt ? key.expiresAt.toISOString() : null,
    rate_limits: { per_hour: key.perHour },
    mode: key.mode ?? 'live',
  };
}
