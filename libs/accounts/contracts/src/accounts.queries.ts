import { Query } from '@nestjs/cqrs';
import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { AccountMode, AccountSummaryView, AccountView, ApiKeySummaryView, ApiKeyView, SystemView, TeamMemberView } from './account-blueprint';

/** `GET /v1/me`: the calling key as the spec shows it. */
export class GetApiKeyQuery extends Query<ApiKeyView> {
  constructor(
    readonly accountId: AccountId,
    readonly keyId: string,
  ) {
    super();
  }
}

/** The account's settings, or null when it does not exist. */
export class GetAccountQuery extends Query<AccountView | null> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}

/** Every System of the account (main first). */
export class ListSystemsQuery extends Query<SystemView[]> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}

/** Every team member of the account. */
export class ListTeamMembersQuery extends Query<TeamMemberView[]> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}

/**
 * Operator read (the console): every account, newest first (`created_at DESC, id DESC`), keyset page
 * with exact `total_count`. Spans every account on purpose, like the operator API's provisioning.
 */
export class ListAccountsQuery extends Query<Page<AccountSummaryView>> {
  constructor(readonly page: { limit: number; after: KeysetPosition | null }) {
    super();
  }
}

/** Operator read (the console): every key of the account, revoked and expired ones included, newest first. */
export class ListApiKeysQuery extends Query<ApiKeySummaryView[]> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}

/** An account's mode and sandbox link (`GetAccountModeQuery`). */
export interface AccountModeView {
  accountId: string;
  mode: AccountMode;
  /** For a sandbox: its live account. */
  sandboxOf: string | null;
  /** For a live account: its sandbox, when one was created. */
  sandboxId: string | null;
}

/**
 * Published query of the accounts context (issue 15, item 4): is the account live or a sandbox?
 * Null for an unknown account. Registered in the api and in the worker (webhook payloads' `livemode`,
 * email delivery, SMS hand-off); an account's mode never changes, so callers may cache the answer.
 */
export class GetAccountModeQuery extends Query<AccountModeView | null> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}
