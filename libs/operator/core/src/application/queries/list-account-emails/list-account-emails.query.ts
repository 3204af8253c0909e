import { Query } from '@nestjs/cqrs';
import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';

/** One entry of `GET /admin/v1/accounts/{id}/emails` (operator-api › Further operator endpoints). */
export interface AccountEmailView {
  id: string;
  to: string;
  subject: string;
  status: 'queued' | 'sending' | 'sent' | 'failed';
  type: string;
  priority: number;
  is_test: boolean;
  created_at: string;
}

/** `GET /admin/v1/accounts/{id}/emails`: outgoing emails, newest first. 404 `not_found` for an unknown account. */
export class ListAccountEmailsQuery extends Query<Page<AccountEmailView>> {
  constructor(
    readonly accountId: AccountId,
    readonly page: { limit: number; after: KeysetPosition | null },
  ) {
    super();
  }
}
