import { Query } from '@nestjs/cqrs';
import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { ExecutionView } from '../../views';

/** `GET /v1/automations/{id}/history`: executions `created_at DESC, id DESC`; 404 `not_found` for a missing or archived automation. */
export class GetAutomationHistoryQuery extends Query<Page<ExecutionView>> {
  constructor(
    readonly accountId: AccountId,
    readonly automationId: string,
    readonly page: { limit: number; after: KeysetPosition | null },
  ) {
    super();
  }
}
