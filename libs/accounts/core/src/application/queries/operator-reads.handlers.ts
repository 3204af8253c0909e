import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock, encodeCursor, Page } from '@leadflow/shared-kernel';
import { AccountSummaryView, apiKeyModePrefix, ApiKeySummaryView, inferPreset, ListAccountsQuery, ListApiKeysQuery } from '@leadflow/accounts-contracts';
import { lifecycleOf } from '../../domain/api-key-lifecycle';
import { AccountsReadModel } from '../ports/accounts.read-model.port';

/** The operator console's account list: newest first, keyset page (`next_cursor`), exact `total_count`. */
@QueryHandler(ListAccountsQuery)
export class ListAccountsHandler implements IQueryHandler<ListAccountsQuery> {
  constructor(private readonly readModel: AccountsReadModel) {}

  async execute({ page }: ListAccountsQuery): Promise<Page<AccountSummaryView>> {
    const { rows, total } = await this.readModel.listAccounts(page.limit, page.after);
    const hasMore = rows.length > page.limit;
    const visible = hasMore ? rows.slice(0, page.limit) : rows;
    const last = visible[visible.length - 1];
    return {
      data: visible.map((account) => ({ id: account.id, name: account.name, timezone: account.timezone, created_at: account.createdAt.toISOString() })),
      pagination: {
        next_cursor: hasMore && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
        has_more: hasMore,
        limit: page.limit,
        total_count: total,
      },
    };
  }
}

/** Every key of the account for the operator console, newest first, with its lifecycle at the clock's instant. */
@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery> {
  constructor(
    private readonly readModel: AccountsReadModel,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId }: ListApiKeysQuery): Promise<ApiKeySummaryView[]> {
    const now = this.clock.now();
    const keys = await this.readModel.listApiKeys(accountId);
    return keys.map((key) => ({
      id: key.id,
      name: key.name,
      prefix: `${apiKeyModePrefix(key.mode)}${key.prefix}`,
      scopes: [...key.scopes],
      preset: inferPreset(key.scopes),
      lifecycle_state: lifecycleOf(key, now),
      per_hour: key.perHour,
      created_at: key.createdAt.toISOString(),
      last_used_at: key.lastUsedAt ? key.lastUsedAt.toISOString() : null,
      expires_at: key.expiresAt ? key.expiresAt.toISOString() : null,
      revoked_at: key.revokedAt ? key.revokedAt.toISOString() : null,
    }));
  }
}

/** The operator console's reads (registered by the api's AccountsHttpModule only, beside {@link AccountsReadModel}). */
export const ACCOUNTS_OPERATOR_READ_HANDLERS = [ListAccountsHandler, ListApiKeysHandler];
