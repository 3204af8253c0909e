import { Query } from '@nestjs/cqrs';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { KeysetPage } from '../../ports/contacts.read-model.port';

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
