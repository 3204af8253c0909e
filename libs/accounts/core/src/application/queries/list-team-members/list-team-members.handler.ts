import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ListTeamMembersQuery, TeamMemberView } from '@leadflow/accounts-contracts';
import { AccountsRepository } from '../../ports/accounts.repository.port';

@QueryHandler(ListTeamMembersQuery)
export class ListTeamMembersHandler implements IQueryHandler<ListTeamMembersQuery> {
  constructor(private readonly repository: AccountsRepository) {}

  async execute({ accountId }: ListTeamMembersQuery): Promise<TeamMemberView[]> {
    const members = await this.repository.listTeamMembers(accountId);
    return members.map(({ createdAt: _createdAt, ...member }) => member);
  }
}
