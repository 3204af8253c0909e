import { Command } from '@nestjs/cqrs';
import { SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { AccountBlueprintPart, AccountView, ApiKeySpec, CreatedAccount, IssuedApiKey, QuoteDefaults } from './account-blueprint';
import type { Feature } from './scopes';

/**
 * Creates an account with its Systems, team members and keys (inside the caller's unit of work).
 * 400 `validation_error` for an invalid time zone (`invalid_timezone`), two main Systems, a name,
 * email or key name given twice (`duplicate`) or a refused `contacts:delete` grant. Each key issued
 * leaves an `api_key_created` activity entry by `actor`.
 */
export class CreateAccountCommand extends Command<CreatedAccount> {
  constructor(
    readonly blueprint: AccountBlueprintPart,
    readonly actor: Actor = SYSTEM_ACTOR,
  ) {
    super();
  }
}

/**
 * One more key, with an `api_key_created` activity entry by `actor`. Throws 404 `not_found` for an
 * unknown account, 400 `validation_error` for a refused grant, 409 `duplicate_resource` when a key of
 * the account that is not revoked already has the name.
 */
export class CreateApiKeyCommand extends Command<IssuedApiKey> {
  constructor(
    readonly accountId: AccountId,
    readonly spec: ApiKeySpec,
    readonly actor: Actor = SYSTEM_ACTOR,
  ) {
    super();
  }
}

/** When a key was revoked (the first revocation: revoking again changes nothing). */
export interface RevokedApiKey {
  keyId: string;
  revokedAt: Date;
}

/**
 * Revokes a key: it stops authenticating at once; an `api_key_revoked` activity entry by `actor` (none
 * when it was already revoked). 404 `not_found` when not in the account.
 */
export class RevokeApiKeyCommand extends Command<RevokedApiKey> {
  constructor(
    readonly accountId: AccountId,
    readonly keyId: string,
    readonly actor: Actor = SYSTEM_ACTOR,
  ) {
    super();
  }
}

export interface AccountPatch {
  features?: Feature[];
  apiTermsAccepted?: boolean;
  quoteDefaults?: QuoteDefaults;
  timezone?: string;
}

/**
 * Changes features, terms acceptance, quote defaults (merged with the current ones) or time zone, with
 * an `account_updated` activity entry by `actor` naming what changed. 404 `not_found` for an unknown
 * account; 400 `no_fields` for an empty patch; 400 `validation_error` (`invalid_timezone`, unknown feature).
 */
export class UpdateAccountCommand extends Command<AccountView> {
  constructor(
    readonly accountId: AccountId,
    readonly patch: AccountPatch,
    readonly actor: Actor = SYSTEM_ACTOR,
  ) {
    super();
  }
}
