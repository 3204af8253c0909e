import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ContactBookingProfile, GetContactBookingProfileQuery } from '@leadflow/contacts-contracts';
import { toContactCard } from '../get-contact-card/get-contact-card.handler';
import { ContactsRepository } from '../../ports/contacts.repository.port';

/** Published query for the bookings context: card, sales rep, stage and disqualification of a contact (null when missing or merged). */
@QueryHandler(GetContactBookingProfileQuery)
export class GetContactBookingProfileHandler implements IQueryHandler<GetContactBookingProfileQuery> {
  constructor(private readonly contacts: ContactsRepository) {}

  async execute({ accountId, contactId }: GetContactBookingProfileQuery): Promise<ContactBookingProfile | null> {
    const state = await this.contacts.findContact(accountId, contactId);
    if (!state || state.mergedIntoId) return null;
    return {
      ...toContactCard(state),
      sales_rep_id: state.salesRepId,
      stage_id: state.stageId,
      disqualified: state.disqualifiedAt !== null,
    };
  }
}
