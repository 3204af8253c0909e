import { Query } from '@nestjs/cqrs';
import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { OutgoingEmailType } from './queue-email.command';

/** Delivery state of an outgoing email: `queued` → `sending` → `sent` | `failed` (`sending` → `queued` on a transient failure). */
export type OutgoingEmailStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** One outgoing email as other contexts list it (`GET /admin/v1/accounts/{id}/emails`). */
export interface OutgoingEmailSummary {
  id: string;
  to: string;
  subject: string;
  status: OutgoingEmailStatus;
  type: OutgoingEmailType;
  priority: number;
  isTest: boolean;
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string;
}

/** Keyset page on `(created_at, id)` descending (shared-platform's `readPageRequest` gives it). */
export interface OutgoingEmailsPageRequest {
  limit: number;
  after: KeysetPosition | null;
}

/** The account's outgoing emails, newest first (`created_at DESC, id DESC`), with an exact `total_count`. */
export class ListOutgoingEmailsQuery extends Query<Page<OutgoingEmailSummary>> {
  constructor(
    readonly accountId: AccountId,
    readonly page: OutgoingEmailsPageRequest,
  ) {
    super();
  }
}
