import { Query } from '@nestjs/cqrs';
import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { AccountSummaryView, AccountView, ApiKeySummaryView, ApiKeyView, SystemView, TeamMemberView } from './account-blueprint';

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
