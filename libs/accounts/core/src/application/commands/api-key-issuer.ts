import { AccountId, Actor, Clock, newId, ValidationFailedError } from '@leadflow/shared-kernel';
import { AccountMode, ApiKeySpec, inferPreset, IssuedApiKey, PRESETS, Scope } from '@leadflow/accounts-contracts';
import { ApiKeySecret } from '../../domain/api-key-secret.value-object';
import { ContactsDeleteGrantError } from '../../domain/accounts.errors';
import { AccountsActivityLog } from '../ports/accounts-activity.port';
import { AccountsRepository, TeamMemberState } from '../ports/accounts.repository.port';

/** Default per-minute limit of `POST /v1/events` for a key (public-api-v1 › Limits). */
export const DEFAULT_EVENTS_PER_MINUTE = 60;

export interface ApiKeyIssuing {
  repository: AccountsRepository;
  activity: AccountsActivityLog;
  clock: Clock;
  defaultPerHour: number;
}

export interface ApiKeyIssueContext {
  /** The account's team members (who may grant `contacts:delete`). */
  members: TeamMemberState[];
  actor: Actor;
  /** The account's mode: `test` issues an `lf_test_` key. Absent reads `live`. */
  mode?: AccountMode;
  /** Field path of the key item in the request body (`api_keys[2]`), '' for a body that is the item. */
  field: string;
}

/**
 * Issues a key from a spec: explicit `scopes` override the `preset` (default `lead_capture`);
 * `contacts:delete` needs `grantedBy`, when given, to name an active team member allowed to delete
 * prospects (400 `validation_error`, reason `grant_not_allowed`); `perHour` defaults to
 * `defaultPerHour`. Only the hash is stored; an `api_key_created` activity entry names the key.
 */
export async function issueApiKey(issuing: ApiKeyIssuing, accountId: AccountId, spec: ApiKeySpec, context: ApiKeyIssueContext): Promise<IssuedApiKey> {
  const at = (member: string) => (context.field ? `${context.field}.${member}` : member);
  const scopes: Scope[] = [...new Set(spec.scopes ?? PRESETS[spec.preset ?? 'lead_capture'])];
  if (scopes.length === 0) {
    throw new ValidationFailedError([{ field: at('scopes'), reason: 'required', message: 'A key needs at least one scope.' }]);
  }
  if (scopes.includes('contacts:delete') && spec.grantedBy) {
    const granter = context.members.find((member) => member.email === spec.grantedBy!.toLowerCase());
    if (!granter || !granter.isActive || !granter.canDeleteProspects) throw new ContactsDeleteGrantError(at('granted_by'));
  }
  const secret = ApiKeySecret.issue(context.mode);
  const id = newId();
  const now = issuing.clock.now();
  const expiresAt = spec.expiresAt ?? null;
  await issuing.repository.insertApiKey(accountId, {
    id,
    name: spec.name,
    prefix: secret.prefix,
    secretHash: secret.hash,
    scopes,
    perHour: spec.perHour ?? issuing.defaultPerHour,
    eventsPerMinute: spec.eventsPerMinute ?? DEFAULT_EVENTS_PER_MINUTE,
    expiresAt,
    revokedAt: null,
    lastUsedAt: null,
    createdAt: now,
    mode: context.mode ?? 'live',
  });
  await issuing.activity.record(accountId, [
    {
      type: 'api_key_created',
      actor: context.actor,
      data: {
        key_id: id,
        key_name: spec.name,
        key_prefix: secret.keyPrefix,
        scopes,
        preset: inferPreset(scopes),
        expires_at: expiresAt ? expiresAt.toISOString() : null,
        granted_by: spec.grantedBy ? spec.grantedBy.toLowerCase() : null,
      },
    },
  ]);
  return { id, key: secret.raw, prefix: secret.keyPrefix };
}
