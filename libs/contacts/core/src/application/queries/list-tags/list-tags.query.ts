import { Query } from '@nestjs/cqrs';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { TagView } from '@leadflow/contacts-contracts';
import type { NamePage } from '../../ports/contacts.read-model.port';

/** `GET /v1/tags`. */
export class ListTagsQuery extends Query<Page<TagView>> {
  constructor(
    readonly accountId: AccountId,
    readonly page: NamePage,
  ) {
    super();
  }
}
