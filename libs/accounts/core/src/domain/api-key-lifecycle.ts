/** `lifecycle_state` of a key as `GET /v1/me` reports it. Only `active` authenticates. */
export type ApiKeyLifecycle = 'active' | 'revoked' | 'expired';

export function lifecycleOf(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): ApiKeyLifecycle {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}
