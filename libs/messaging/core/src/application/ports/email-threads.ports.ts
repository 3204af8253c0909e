import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { EmailThreadsPageRequest, EmailThreadView } from '@leadflow/messaging-contracts';

/** A non-test email joining its thread. */
export interface ThreadMessage {
  /** Lowercase recipient address: one thread per account and address. */
  address: string;
  /** Lowercase sender address (added to the participants once). */
  sender: string;
  subject: string;
  contactId: string | null;
  at: Date;
}

/** Email threads; writes join the caller's unit of work. */
export abstract class EmailThreadRepository {
  /**
   * Creates the address's thread or updates it (subject, `last_message_at`, `message_count` + 1, the
   * contact when it was unknown, the sender among the participants) in one race-safe upsert; returns its id.
   */
  abstract touch(accountId: AccountId, message: ThreadMessage): Promise<string>;
}

export abstract class EmailThreadsReadModel {
  /** `last_message_at DESC, id DESC`, keyset paginated, exact `total_count`. */
  abstract list(accountId: AccountId, page: EmailThreadsPageRequest): Promise<Page<EmailThreadView>>;
}
