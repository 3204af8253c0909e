import type { EventRegistrationView } from '@leadflow/events-contracts';
import type { RegistrationState } from './ports/events.ports';

export function toRegistrationView(state: RegistrationState): EventRegistrationView {
  return {
    id: state.id,
    contact_id: state.contactId,
    event_id: state.eventId,
    edition_id: state.editionId,
    language: state.language,
    status: state.status,
    opted_out: state.optedOutAt !== null,
    created_at: state.createdAt.toISOString(),
    updated_at: state.updatedAt.toISOString(),
  };
}
