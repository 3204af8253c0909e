import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { ContactCard } from './contact-card.query';

/** What a booking needs from its contact (bookings › sales rep, qualified-lead access rule). */
export interface ContactBookingProfile extends ContactCard {
  /** The contact's sales rep (a team member id), or null. */
  sales_rep_id: string | null;
  /** The contact's pipeline stage (a deal), or null when in no pipeline. */
  stage_id: string | null;
  disqualified: boolean;
}

/**
 * The contact's booking profile, or null when it is missing, merged into another, not a UUID, or another
 * account's (all alike).
 */
export class GetContactBookingProfileQuery extends Query<ContactBookingProfile | null> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
  ) {
    super();
  }
}
