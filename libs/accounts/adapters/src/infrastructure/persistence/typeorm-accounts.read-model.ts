import { Injectable } from '@nestjs/common';
import { AccountId, asAccountId, KeysetPosition } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { AccountsReadModel, AccountState, ApiKeyState } from '@leadflow/accounts-core';
import { AccountRecord, ApiKeyRecord } from './accounts.records';

/** TypeORM implementation of {@link AccountsReadModel} (the operator console's reads). */
@Injectable()
export class TypeOrmAccountsReadModel extends AccountsReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async listAccounts(limit: number, after: KeysetPosition | null): Promise<{ rows: AccountState[]; total: number }> {
    const manager = this.transactions.manager;
    const query = manager.createQueryBuilder(AccountRecord, 'account').orderBy('account.createdAt', 'DESC').addOrderBy('account.id', 'DESC').limit(limit + 1);
    if (after?.id) query.where('(account.createdAt, account.id) < (:createdAt, :id)', { createdAt: after.createdAt, id: after.id });
    else if (after) query.where('account.createdAt < :createdAt', { createdAt: after.createdAt });
    const [rows, total] = await Promise.all([query.getMany(), manager.count(AccountRecord)]);
    return { rows: rows.map((row) => ({ ...row, id: asAccountId(row.id) })), total };
  }

  async listApiKeys(accountId: AccountId): Promise<ApiKeyState[]> {
    const rows = await this.transactions.manager.find(ApiKeyRecord, { where: { accountId }, order: { createdAt: 'DESC', id: 'DESC' } });
    return rows.map(({ accountId: _accountId, ...key }) => key);
  }
}
