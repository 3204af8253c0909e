import { Query } from '@nestjs/cqrs';
import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { AutomationView } from '../../views';

/** `GET /v1/automations`: archived excluded, `status` filter (`active`/`inactive`), `created_at DESC, id DESC`. */
export class ListAutomationsQuery extends Query<Page<AutomationView>> {
  constructor(
    readonly accountId: AccountId,
    readonly isActive: boolean | null,
    readonly page: { limit: number; after: KeysetPosition | null },
  ) {
    super();
  }
}
