import { AccountId, Clock, newId, ValidationFailedError } from '@leadflow/shared-kernel';
import { ApiKeySpec, IssuedApiKey, PRESETS, Scope } from '@leadflow/accounts-contracts';
import { ApiKeySecret } from '../../domain/api-key-secret.value-object';
import { ContactsDeleteGrantError } from '../../domain/accounts.errors';
import { AccountsRepository, TeamMemberState } from '../ports/accounts.repository.port';

/** Default per-minute limit of `POST /v1/events` for a key (public-api-v1 › Limits). */
export const DEFAULT_EVENTS_PER_MINUTE = 60;

/**
 * Issues a key from a spec: explicit `scopes` override the `preset` (default `lead_capture`);
 * `contacts:delete` needs `grantedBy` to name a team member allowed to delete prospects
 * (400 `validation_error`, reason `grant_not_allowed`); `perHour` defaults to `defaultPerHour`.
 */
export async function issueApiKey(
  repository: AccountsRepository,
  clock: Clock,
  accountId: AccountId,
  spec: ApiKeySpec,
  defaultPerHour: number,
  members: TeamMemberState[],
  field = 'api_keys',
): Promise<IssuedApiKey> {
  const scopes: Scope[] = [...new Set(spec.scopes ?? PRESETS[spec.preset ?? 'lead_capture'])];
  if (scopes.length === 0) {
    throw new ValidationFailedError([{ field: `${field}.scopes`, reason: 'required', message: 'A key needs at least one scope.' }]);
  }
  if (scopes.includes('contacts:delete') && spec.grantedBy) {
    const granter = members.find((member) => member.email === spec.grantedBy!.toLowerCase());
    if (!granter || !granter.isActive || !granter.canDeleteProspects) throw new ContactsDeleteGrantError(`${field}.granted_by`);
  }
  const secret = ApiKeySecret.issue();
  const id = newId();
  await repository.insertApiKey(accountId, {
    id,
    name: spec.name,
    prefix: secret.prefix,
    secretHash: secret.hash,
    scopes,
    perHour: spec.perHour ?? defaultPerHour,
    eventsPerMinute: spec.eventsPerMinute ?? DEFAULT_EVENTS_PER_MINUTE,
    expiresAt: spec.expiresAt ?? null,
    revokedAt: null,
    lastUsedAt: null,
    createdAt: clock.now(),
  });
  return { id, key: secret.raw, prefix: secret.keyPrefix };
}
