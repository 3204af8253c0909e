import { Injectable } from '@nestjs/common';
import type { AccountId } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, TransactionHost } from '@leadflow/shared-platform';
import { CustomFieldDefinition, CustomFieldDefinitionRepository } from '@leadflow/contacts-core';
import { ContactMapper } from './contact.mapper';
import { CustomFieldDefinitionRecord } from './contacts.records';

/**
 * TypeORM implementation of {@link CustomFieldDefinitionRepository} (`contacts.custom_field_definitions`);
 * filters on `account_id`. A write invalidates the account's `config` caches (lead capture's settings) in
 * every process once the unit of work commits.
 */
@Injectable()
export class TypeOrmCustomFieldDefinitionRepository extends CustomFieldDefinitionRepository {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly invalidation: AccountCacheInvalidation,
  ) {
    super();
  }

  private get manager() {
    return this.transactions.manager;
  }

  /** After commit (at once outside a unit of work): every process forgets the account's cached settings. */
  private settingsChanged(accountId: AccountId): Promise<void> {
    return this.transactions.afterCommit(() => this.invalidation.invalidate('config', accountId));
  }

  async listDefinitions(accountId: AccountId): Promise<CustomFieldDefinition[]> {
    const rows = await this.manager.find(CustomFieldDefinitionRecord, { where: { accountId }, order: { position: 'ASC', id: 'ASC' } });
    return rows.map(ContactMapper.toDefinition);
  }
  async insertDefinitions(accountId: AccountId, definitions: readonly CustomFieldDefinition[], at: Date): Promise<void> {
    if (definitions.length === 0) return;
    const [{ next }]: { next: number }[] = await this.manager.query(
      `SELECT COALESCE(MAX(position), -1) + 1 AS next FROM contacts.custom_field_definitions WHERE account_id = $1`,
      [accountId],
    );
    await this.manager.insert(
      CustomFieldDefinitionRecord,
      definitions.map((definition, index) => ({
        id: definition.id,
        accountId,
        name: definition.name,
        type: definition.type,
        options: definition.options,
        position: Number(next) + index,
        createdAt: at,
      })),
    );
    await this.settingsChanged(accountId);
  }
}
