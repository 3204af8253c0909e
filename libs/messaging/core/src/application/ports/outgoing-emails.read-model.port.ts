import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { OutgoingEmailsPageRequest, OutgoingEmailSummary } from '@leadflow/messaging-contracts';

/** Lists of outgoing emails, straight from the table, filtered on the account. */
export abstract class OutgoingEmailsReadModel {
  /** Newest first (`created_at DESC, id DESC`), keyset paginated, exact `total_count`. */
  abstract list(accountId: AccountId, page: OutgoingEmailsPageRequest): Promise<Page<OutgoingEmailSummary>>;
}
