import { Query } from '@nestjs/cqrs';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { ActivityEntryView, ActivityFilter, ActivityPageRequest } from '../../ports/account-activity.read-model.port';

/** `GET /admin/v1/accounts/{id}/activity`. 404 `not_found` for an unknown account. */
export class ListAccountActivityQuery extends Query<Page<ActivityEntryView>> {
  constructor(
    readonly accountId: AccountId,
    readonly filter: ActivityFilter,
    readonly page: ActivityPageRequest,
  ) {
    super();
  }
}
