import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { AccountBlueprintPart, AccountView, ApiKeySpec, CreatedAccount, IssuedApiKey, QuoteDefaults } from './account-blueprint';
import type { Feature } from './scopes';

/** Creates an account with its Systems, team members and keys (inside the caller's unit of work). */
export class CreateAccountCommand extends Command<CreatedAccount> {
  constructor(readonly blueprint: AccountBlueprintPart) {
    super();
  }
}

/** One more key. Throws 404 `not_found` for an unknown account, 400 `validation_error` for a refused grant. */
export class CreateApiKeyCommand extends Command<IssuedApiKey> {
  constructor(
    readonly accountId: AccountId,
    readonly spec: ApiKeySpec,
  ) {
    super();
  }
}

/** Revokes a key: it stops authenticating at once. 404 `not_found` when not in the account. */
export class RevokeApiKeyCommand extends Command<void> {
  constructor(
    readonly accountId: AccountId,
    readonly keyId: string,
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

/** Changes features, terms acceptance, quote defaults or time zone. 404 `not_found` for an unknown account. */
export class UpdateAccountCommand extends Command<AccountView> {
  constructor(
    readonly accountId: AccountId,
    readonly patch: AccountPatch,
  ) {
    super();
  }
}
