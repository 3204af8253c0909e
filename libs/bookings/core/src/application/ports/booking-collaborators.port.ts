import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { ContactBookingProfile } from '@leadflow/contacts-contracts';
import type { OutgoingEmailRequest } from '@leadflow/messaging-contracts';

/** A team member who may host bookings (accounts context). */
export interface BookingTeamMember {
  id: string;
  email: string;
  name: string | null;
  isActive: boolean;
}

/** A guest who books without `contact_id`: found or created as a contact by email. */
export interface BookingGuest {
  name: string;
  email: string;
  phone: string | null;
}

/** Other contexts, through their published queries and commands. */
export abstract class BookingDirectory {
  abstract teamMembers(accountId: AccountId): Promise<BookingTeamMember[]>;
  /** The account's IANA zone (`America/Montreal` when none). */
  abstract accountTimezone(accountId: AccountId): Promise<string>;
  /** Null when missing, merged or another account's. */
  abstract contact(accountId: AccountId, contactId: string): Promise<ContactBookingProfile | null>;
  /** The guest's contact id (found by email, else created in the caller's unit of work). */
  abstract findOrCreateGuest(accountId: AccountId, guest: BookingGuest, actor: Actor): Promise<string>;
  /** Whether the stage is open (neither won, lost nor the disqualification stage); null when missing. */
  abstract stageIsOpen(accountId: AccountId, stageId: string): Promise<boolean | null>;
}

/** The outgoing-email path (messaging's QueueEmailCommand) in the caller's unit of work; skipped when the account has no sender. */
export abstract class BookingMailer {
  /** True when queued, false when the account has no sender (nothing written). */
  abstract queue(accountId: AccountId, email: OutgoingEmailRequest): Promise<boolean>;
}
