import { Query } from '@nestjs/cqrs';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { ContactView, CustomFieldDefinitionView } from '@leadflow/contacts-contracts';
import type { KeysetPage } from '../../ports/contacts.read-model.port';

export interface ContactListPage extends Page<ContactView> {
  /** With `include=custom_field_definitions`. */
  meta?: { custom_field_definitions: CustomFieldDefinitionView[] };
}

/** `GET /v1/contacts`. `tagId` is a checked UUID or null. */
export class ListContactsQuery extends Query<ContactListPage> {
  constructor(
    readonly accountId: AccountId,
    readonly options: { search: string | null; tagId: string | null; page: KeysetPage; expandTags: boolean; includeDefinitions: boolean },
  ) {
    super();
  }
}
