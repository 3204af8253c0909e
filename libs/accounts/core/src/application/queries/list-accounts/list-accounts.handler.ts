import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page, encodeCursor } from '@leadflow/shared-kernel';
import { AccountSummaryView, ListAccountsQuery } from '@leadflow/accounts-contracts';
import { AccountsReadModel } from '../../ports/accounts.read-model.port';

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
