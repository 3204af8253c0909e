import { CommandBus, CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AccountId, Clock, DomainError, Journal, UnitOfWork, newId } from '@leadflow/shared-kernel';
import { ContactCard, GetContactCardQuery } from '@leadflow/contacts-contracts';
import { QueueEmailCommand, QueuedEmail } from '@leadflow/messaging-contracts';
import { EditionState, EventState, editionForRegistration, languageForRegistration } from '../../../domain/registration-rules';
import { RegistrationResourceNotFoundError } from '../../../domain/events.errors';
import { EventsRepository, RegistrationState } from '../../ports/events.ports';
import { confirmationEmail } from '../../registration-email';
import { toRegistrationView } from '../../views';
import { RegisterForEventCommand, RegistrationOutcome } from './register-for-event.command';

/**
 * `POST /v1/event-registrations` (public-api-v1 › Endpoints › Events), after the route's scope
 * (`contacts:write`) and plan gate (`events_module`, 403 `feature_not_available`) and the body rules
 * (400 `validation_error`: invalid body, both or neither of `event_id` / `event_slug`):
 *
 * 1. 404 `resource_not_found` `details.resource` `contact` (missing, merged, other account), then
 *    `event` (by id or slug, the account's only), then `edition` (an `edition_id` not of the event).
 * 2. The edition and language rules of `editionForRegistration` / `languageForRegistration` (422
 *    `business_rule_violation` `details.rule` `event_not_published`, `event_closed`,
 *    `event_edition_ended`; 400 `validation_error` field `language`).
 * 3. One registration per contact and edition (unique index; INSERT … ON CONFLICT DO NOTHING, so two
 *    concurrent first registrations make one row and one confirmation). First → `created` true, a
 *    `registration_confirmation` email in the registration's language (when the contact has an email
 *    and the account a default sender) and an `event_registered` activity entry. Repeat → `created`
 *    false, no email: the language is updated, a `declined` registration is `registered` again, an
 *    opt-out stays (`opted_out` true).
 */
@CommandHandler(RegisterForEventCommand)
export class RegisterForEventHandler implements ICommandHandler<RegisterForEventCommand> {
  constructor(
    private readonly events: EventsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, request, actor }: RegisterForEventCommand): Promise<RegistrationOutcome> {
    const contact: ContactCard | null = await this.queries.execute(new GetContactCardQuery(accountId, request.contactId));
    if (!contact) throw new RegistrationResourceNotFoundError('contact');
    const event = await this.events.findEvent(accountId, request.eventId !== null ? { id: request.eventId } : { slug: request.eventSlug ?? '' });
    if (!event) throw new RegistrationResourceNotFoundError('event');
    const now = this.clock.now();
    const edition = editionForRegistration(event, request.editionId, now);
    const language = languageForRegistration(event, request.language);

    return this.unitOfWork.run(async () => {
      const fresh: RegistrationState = {
        id: newId(),
        accountId,
        contactId: contact.id,
        eventId: event.id,
        editionId: edition.id,
        language,
        status: 'registered',
        optedOutAt: null,
        confirmationEmailId: null,
        createdAt: now,
        updatedAt: now,
      };
      if (await this.events.insertRegistrationIfAbsent(fresh)) {
        const email = await this.confirm(accountId, contact, event, edition, fresh);
        const registration = { ...fresh, confirmationEmailId: email?.id ?? null };
        if (email) await this.events.updateRegistration(registration);
        await this.journal.record(accountId, [
          {
            contactId: contact.id,
            type: 'event_registered',
            actor,
            data: { registration_id: fresh.id, event_id: event.id, edition_id: edition.id, language, confirmation_email_id: email?.id ?? null },
          },
        ]);
        return { registration: toRegistrationView(registration), created: true };
      }
      const existing = await this.events.findRegistration(accountId, edition.id, contact.id, { lock: true });
      if (!existing) throw new Error('registration vanished while registering'); // rows are never deleted
      const next: RegistrationState = { ...existing, language, status: 'registered' };
      if (next.language !== existing.language || next.status !== existing.status) {
        next.updatedAt = now;
        await this.events.updateRegistration(next);
        await this.journal.record(accountId, [
          {
            contactId: contact.id,
            type: 'event_registration_updated',
            actor,
            data: {
              registration_id: existing.id,
              changes: {
                ...(next.language !== existing.language ? { language: { previous: existing.language, current: next.language } } : {}),
                ...(next.status !== existing.status ? { status: { previous: existing.status, current: next.status } } : {}),
              },
            },
          },
        ]);
      }
      return { registration: toRegistrationView(next), created: false };
    });
  }

  /** The confirmation of a first registration; none when the contact has no email or the account no default sender. */
  private async confirm(accountId: AccountId, contact: ContactCard, event: EventState, edition: EditionState, registration: RegistrationState): Promise<QueuedEmail | null> {
    if (!contact.email) return null;
    const content = confirmationEmail(registration.language, { firstName: contact.first_name, eventName: event.name, edition });
    try {
      return await this.commands.execute(
        new QueueEmailCommand(accountId, {
          to: contact.email,
          subject: content.subject,
          html: content.html,
          type: 'registration_confirmation',
          priority: 1,
          contactId: contact.id,
          source: { kind: 'event_registration', id: registration.id },
        }),
      );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'no_sender_configured') return null;
      throw error;
    }
  }
}
