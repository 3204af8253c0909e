import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { ContactView } from '@leadflow/contacts-contracts';

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
