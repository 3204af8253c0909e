import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { AccountView, ApiKeyView, SystemView, TeamMemberView } from './account-blueprint';

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
