import { Injectable } from '@nestjs/common';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import { applyKeyset, toPage, TransactionHost } from '@leadflow/shared-platform';
import { OutgoingEmailsReadModel } from '@leadflow/messaging-core';
import type { OutgoingEmailsPageRequest, OutgoingEmailSummary } from '@leadflow/messaging-contracts';
import { OutgoingEmailRecord } from './outgoing-email.record';

/** Lists `messaging.outgoing_emails` on the `(account_id, created_at DESC, id DESC)` index. */
@Injectable()
export class TypeOrmOutgoingEmailsReadModel extends OutgoingEmailsReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async list(accountId: AccountId, page: OutgoingEmailsPageRequest): Promise<Page<OutgoingEmailSummary>> {
    const builder = this.transactions.manager.createQueryBuilder(OutgoingEmailRecord, 'email').where('email.account_id = :accountId', { accountId });
    const total = await builder.clone().getCount();
    const rows = await applyKeyset(builder, 'email', page).getMany();
    return toPage(rows, page, total, (row) => ({
      id: row.id,
      to: row.to,
      subject: row.subject,
      status: row.status,
      type: row.type,
      priority: row.priority,
      isTest: row.isTest,
      createdAt: row.createdAt.toISOString(),
    }));
  }
}
