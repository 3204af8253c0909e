import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { Page, ResourceNotFoundError } from '@leadflow/shared-kernel';
import { GetAccountQuery } from '@leadflow/accounts-contracts';
import { ListOutgoingEmailsQuery } from '@leadflow/messaging-contracts';
import { AccountEmailView, ListAccountEmailsQuery } from './list-account-emails.query';

/** The account must exist (404 `not_found`); the emails come from messaging's published query, filtered on the account. */
@QueryHandler(ListAccountEmailsQuery)
export class ListAccountEmailsHandler implements IQueryHandler<ListAccountEmailsQuery> {
  constructor(private readonly queries: QueryBus) {}

  async execute({ accountId, page }: ListAccountEmailsQuery): Promise<Page<AccountEmailView>> {
    if (!(await this.queries.execute(new GetAccountQuery(accountId)))) {
      throw new ResourceNotFoundError('not_found', 'No such account.', { resource: 'account' });
    }
    const emails = await this.queries.execute(new ListOutgoingEmailsQuery(accountId, page));
    return {
      data: emails.data.map((email) => ({
        id: email.id,
        to: email.to,
        subject: email.subject,
        status: email.status,
        type: email.type,
        priority: email.priority,
        is_test: email.isTest,
        created_at: email.createdAt,
      })),
      pagination: emails.pagination,
    };
  }
}
