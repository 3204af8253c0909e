import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/** The few fields another context copies from a contact (quotes: prospect fields read from the contact). */
export interface ContactCard {
  id: string;
  first_name: string | null;
  last_name: string | null;
  /** Lowercase. */
  email: string | null;
  /** E.164. */
  phone: string | null;
  company: string | null;
  archived: boolean;
}

/** The contact's card, or null when it is missing, merged into another, not a UUID, or another account's (all alike). */
export class GetContactCardQuery extends Query<ContactCard | null> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
  ) {
    super();
  }
}
