import { Injectable } from '@nestjs/common';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import { ActivityLogRecord, applyKeyset, toPage, TransactionHost } from '@leadflow/shared-platform';
import { AccountActivityReadModel, ActivityEntryView, ActivityFilter, ActivityPageRequest } from '@leadflow/operator-core';

/**
 * Reads `platform.activity_log` (written by every context through the platform's ActivityLogWriter),
 * on the `(account_id, created_at DESC, id DESC)` index.
 */
@Injectable()
export class TypeOrmAccountActivityReadModel extends AccountActivityReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async list(accountId: AccountId, filter: ActivityFilter, page: ActivityPageRequest): Promise<Page<ActivityEntryView>> {
    const builder = this.transactions.manager.createQueryBuilder(ActivityLogRecord, 'entry').where('entry.account_id = :accountId', { accountId });
    if (filter.contactId !== null) builder.andWhere('entry.contact_id = :contactId', { contactId: filter.contactId });
    if (filter.type !== null) builder.andWhere('entry.type = :type', { type: filter.type });
    const total = await builder.clone().getCount();
    const rows = await applyKeyset(builder, 'entry', page).getMany();
    return toPage(rows, page, total, (row) => ({
      id: row.id,
      contact_id: row.contactId,
      type: row.type,
      actor: row.actor,
      created_at: row.createdAt.toISOString(),
    }));
  }
}
