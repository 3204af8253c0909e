import type { AccountId } from '@leadflow/shared-kernel';
import { CustomFieldDefinitionRepository } from '../application/ports/custom-field-definition.repository.port';
import type { CustomFieldDefinition } from '../domain/custom-fields';
import { InMemoryContactsStore } from './in-memory-contacts.store';

/** {@link CustomFieldDefinitionRepository} over the store. */
export class InMemoryCustomFieldDefinitionRepository extends CustomFieldDefinitionRepository {
  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  async listDefinitions(accountId: AccountId): Promise<CustomFieldDefinition[]> {
    return this.store.definitions.filter((row) => row.accountId === accountId).map(({ accountId: _a, ...definition }) => definition);
  }
  async insertDefinitions(accountId: AccountId, definitions: readonly CustomFieldDefinition[]): Promise<void> {
    this.store.definitions.push(...definitions.map((definition) => ({ ...definition, accountId })));
  }
}
