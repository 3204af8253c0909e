import { Query } from '@nestjs/cqrs';
import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';

/**
 * An email thread (`GET /v1/emails/conversations`): every non-test email the account sent to one
 * recipient address (one thread per account and address), metadata only.
 */
export interface EmailThreadView {
  id: string;
  /** Subject of the latest email of the thread. */
  subject: string;
  /** The recipient's contact when known (linked by the email that knew it), else null. */
  contact_id: string | null;
  /** The recipient address first, then every sender address that wrote to it (lowercase). */
  participants: string[];
  message_count: number;
  /** ISO 8601 UTC, never null: when the latest email was queued. */
  last_message_at: string;
  created_at: string;
}

export interface EmailThreadsPageRequest {
  limit: number;
  /** Position on `(last_message_at, id)`. */
  after: KeysetPosition | null;
}

/** The account's email threads, `last_message_at DESC, id DESC`, keyset paginated, exact `total_count`. */
export class ListEmailThreadsQuery extends Query<Page<EmailThreadView>> {
  constructor(
    readonly accountId: AccountId,
    readonly page: EmailThreadsPageRequest,
  ) {
    super();
  }
}
