import { Query } from '@nestjs/cqrs';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { ContactView, CustomFieldDefinitionView, TagView } from '@leadflow/contacts-contracts';
import type { KeysetPage, NamePage } from '../ports/contacts.read-model.port';

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

/** `GET /v1/contacts/{id}`: 404 `not_found` for a missing, merged or other account's contact. */
export class GetContactQuery extends Query<ContactView> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly expandTags: boolean,
  ) {
    super();
  }
}

/** `GET /v1/contacts/{id}/timeline` (stub: always an empty page). 404 `not_found`. */
export class GetContactTimelineQuery extends Query<Page<never>> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly page: KeysetPage,
  ) {
    super();
  }
}

/** `GET /v1/tags`. */
export class ListTagsQuery extends Query<Page<TagView>> {
  constructor(
    readonly accountId: AccountId,
    readonly page: NamePage,
  ) {
    super();
  }
}
