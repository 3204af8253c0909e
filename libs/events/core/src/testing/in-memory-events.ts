import type { AccountId } from '@leadflow/shared-kernel';
import { CustomEventState, EventsRepository, RegistrationState } from '../application/ports/events.ports';
import type { EventState } from '../domain/registration-rules';

/** {@link EventsRepository} in memory (unit tests of the handlers). */
export class InMemoryEventsRepository extends EventsRepository {
  readonly events: EventState[] = [];
  readonly registrations: RegistrationState[] = [];
  readonly customEvents: CustomEventState[] = [];

  async slugsTaken(accountId: AccountId, slugs: readonly string[]): Promise<string[]> {
    return this.events.filter((event) => event.accountId === accountId && slugs.includes(event.slug)).map((event) => event.slug);
  }

  async insertEvents(_accountId: AccountId, events: readonly EventState[]): Promise<void> {
    this.events.push(...events.map((event) => ({ ...event, editions: event.editions.map((edition) => ({ ...edition })) })));
  }

  async findEvent(accountId: AccountId, ref: { id: string } | { slug: string }): Promise<EventState | null> {
    return this.events.find((event) => event.accountId === accountId && ('id' in ref ? event.id === ref.id : event.slug === ref.slug)) ?? null;
  }

  async insertRegistrationIfAbsent(registration: RegistrationState): Promise<boolean> {
    const taken = this.registrations.some(
      (row) => row.accountId === registration.accountId && row.editionId === registration.editionId && row.contactId === registration.contactId,
    );
    if (!taken) this.registrations.push({ ...registration });
    return !taken;
  }

  async findRegistration(accountId: AccountId, editionId: string, contactId: string): Promise<RegistrationState | null> {
    const row = this.registrations.find((candidate) => candidate.accountId === accountId && candidate.editionId === editionId && candidate.contactId === contactId);
    return row ? { ...row } : null;
  }

  async findRegistrationById(accountId: AccountId, registrationId: string): Promise<RegistrationState | null> {
    const row = this.registrations.find((candidate) => candidate.accountId === accountId && candidate.id === registrationId);
    return row ? { ...row } : null;
  }

  async updateRegistration(registration: RegistrationState): Promise<void> {
    const index = this.registrations.findIndex((row) => row.accountId === registration.accountId && row.id === registration.id);
    if (index >= 0) this.registrations[index] = { ...registration };
  }

  async insertCustomEvent(event: CustomEventState): Promise<void> {
    this.customEvents.push({ ...event });
  }
}
