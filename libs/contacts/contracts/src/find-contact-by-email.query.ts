import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { ContactCard } from './contact-card.query';

/** What the account knows of an email address. */
export interface EmailRecipientView {
  /** The unmerged contact holding the address (primary or secondary email), or null. */
  contact: ContactCard | null;
  /** The address is on the account's unsubscribe list. */
  unsubscribed: boolean;
}

/**
 * Looks an address up (any case) without creating anything: its contact (a merged holder resolves to
 * its survivor) and whether it is on the unsubscribe list. For messaging (`POST /v1/emails/send`).
 * An address that is not an email finds nothing.
 */
export class FindContactByEmailQuery extends Query<EmailRecipientView> {
  constructor(
    readonly accountId: AccountId,
    readonly email: string,
  ) {
    super();
  }
}
