import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ListTeamMembersQuery } from '@leadflow/accounts-contracts';
import { FindContactByEmailQuery } from '@leadflow/contacts-contracts';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import { ActivityLogWriter } from '@leadflow/shared-platform';
import { ContactHistory, KnownRecipient, MessagingDirectory, TeamMemberRecipient } from '@leadflow/messaging-core';

/** {@link MessagingDirectory} through the accounts and contacts contracts (QueryBus). */
@Injectable()
export class CqrsMessagingDirectory extends MessagingDirectory {
  constructor(private readonly queries: QueryBus) {
    super();
  }

  async teamMember(accountId: AccountId, email: string): Promise<TeamMemberRecipient | null> {
    const members = await this.queries.execute(new ListTeamMembersQuery(accountId));
    const member = members.find((candidate) => candidate.email.toLowerCase() === email);
    return member ? { email: member.email.toLowerCase(), firstName: member.firstName, isActive: member.isActive } : null;
  }

  async recipient(accountId: AccountId, email: string): Promise<KnownRecipient> {
    const found = await this.queries.execute(new FindContactByEmailQuery(accountId, email));
    return { contact: found.contact, unsubscribed: found.unsubscribed };
  }
}

/** {@link ContactHistory} on the platform's activity log (the contact's timeline). */
@Injectable()
export class ActivityLogContactHistory extends ContactHistory {
  constructor(private readonly activityLog: ActivityLogWriter) {
    super();
  }

  async emailQueued(
    accountId: AccountId,
    contactId: string,
    actor: Actor,
    data: { email_id: string; thread_id: string | null; subject: string; to: string },
  ): Promise<void> {
    await this.activityLog.record(accountId, [{ contactId, type: 'email_queued', actor, data }]);
  }
}
