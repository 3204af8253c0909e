import { Injectable } from '@nestjs/common';
import { AccountId, DomainError } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ExistingSender, Sender, SenderRepository } from '@leadflow/messaging-core';
import type { SenderView } from '@leadflow/messaging-contracts';
import { SenderRecord } from './sender.record';

const UNIQUE_VIOLATION = '23505';

/** TypeORM implementation of {@link SenderRepository}; every query filters on `account_id`. */
@Injectable()
export class TypeOrmSenderRepository extends SenderRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async listExisting(accountId: AccountId): Promise<ExistingSender[]> {
    const rows = await this.transactions.manager.find(SenderRecord, { where: { accountId }, select: { email: true, isDefault: true } });
    return rows.map(({ email, isDefault }) => ({ email, isDefault }));
  }

  async insert(accountId: AccountId, senders: readonly Sender[]): Promise<void> {
    if (senders.length === 0) return;
    try {
      await this.transactions.manager.insert(SenderRecord, senders.map((sender) => ({ ...sender, accountId })));
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new DomainError('duplicate_resource', 'A sender email or the default sender was taken concurrently.', { resource: 'sender', reason: 'duplicate' });
      }
      throw error;
    }
  }

  async findDefault(accountId: AccountId): Promise<SenderView | null> {
    const row = await this.transactions.manager.findOneBy(SenderRecord, { accountId, isDefault: true });
    return row ? toView(row) : null;
  }

  async list(accountId: AccountId): Promise<SenderView[]> {
    const rows = await this.transactions.manager.find(SenderRecord, { where: { accountId }, order: { isDefault: 'DESC', createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toView);
  }
}

function toView(row: SenderRecord): SenderView {
  return { id: row.id, email: row.email, name: row.name, isDefault: row.isDefault };
}
