import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  Clock,
  DomainError,
  FieldViolation,
  Journal,
  UnitOfWork,
  ValidationFailedError,
  newId,
  normalizeEmail,
  normalizePhone,
} from '@leadflow/shared-kernel';
import { EnrolCustomEventCommand } from '@leadflow/automations-contracts';
import { EventContactIdentifiers, ResolveEventContactCommand, ResolvedEventContact } from '@leadflow/contacts-contracts';
import { CUSTOM_EVENT_ACTIVITY_TYPE, CUSTOM_EVENT_RECEIVED_EVENT, CustomEventReceivedPayload } from '@leadflow/events-contracts';
import { capPayload } from '../../../domain/custom-event-payload';
import { EventContactNotFoundError } from '../../../domain/events.errors';
import { EventsRepository } from '../../ports/events.ports';
import { CustomEventIngested, CustomEventInput, IngestCustomEventCommand } from './ingest-custom-event.command';

/** Attempts of one ingestion: a concurrent request creating the same new person makes one attempt lose the identity race. */
const MAX_ATTEMPTS = 3;

/** Activity-log / timeline type of a recorded custom event. */
export const CUSTOM_EVENT_ACTIVITY = CUSTOM_EVENT_ACTIVITY_TYPE;

/**
 * `POST /v1/events` (public-api-v1 › Custom event input, Endpoints › Events), after the route's
 * signature and limits:
 *
 * 1. The identifiers: at least one of `external_id`, `email`, `phone` (else 400 `validation_error`
 *    field `contact` reason `identity_required`); an email that is not an address (400 `contact.email`
 *    `invalid_format`) or a phone that does not normalise to E.164 (400 `contact.phone` `invalid_phone`).
 * 2. The payload is capped (`PAYLOAD_CAPS`: stored truncated, never refused).
 * 3. One transaction: the contacts context resolves the contact (external id → phone → email;
 *    `ResolveEventContactCommand`: custom fields merged by name, minimal contact created unless
 *    `create_if_missing` is false → 404 `contact_not_found`, nothing recorded); the event row, a
 *    `custom_event` activity entry on the contact and a `custom_event_received` outbox event (the
 *    contacts context's lead score consumes it); unless the contact is archived, the automations
 *    context enrols it (`EnrolCustomEventCommand`: matching name, 5 minute per-contact per-automation
 *    dedup) and `enrolled_executions` counts the executions created. No consent is set anywhere.
 *
 * A lost identity race (409 `duplicate_resource` from the contacts context) rolls the attempt back and
 * starts over, finding the winner's contact (one contact, one event).
 */
@CommandHandler(IngestCustomEventCommand)
export class IngestCustomEventHandler implements ICommandHandler<IngestCustomEventCommand> {
  constructor(
    private readonly events: EventsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, actor, apiKeyId }: IngestCustomEventCommand): Promise<CustomEventIngested> {
    const identifiers = identifiersOf(input);
    const payload = capPayload(input.payload);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.unitOfWork.run(async () => {
          const contact: ResolvedEventContact | null = await this.commands.execute(
            new ResolveEventContactCommand(accountId, identifiers, input.contact.createIfMissing, input.customFields, actor),
          );
          if (!contact) throw new EventContactNotFoundError();
          const eventId = newId();
          const enrolled = contact.archived
            ? 0
            : (await this.commands.execute(new EnrolCustomEventCommand(accountId, contact.contact_id, input.event, payload.value, eventId))).executionIds.length;
          const now = this.clock.now();
          await this.events.insertCustomEvent({
            id: eventId,
            accountId,
            contactId: contact.contact_id,
            name: input.event,
            payload: payload.value,
            payloadTruncated: payload.truncated,
            sourceLabel: input.sourceLabel,
            contactArchived: contact.archived,
            contactCreated: contact.created,
            enrolledExecutions: enrolled,
            apiKeyId,
            createdAt: now,
          });
          const received: CustomEventReceivedPayload = { contact_id: contact.contact_id, event_id: eventId, event: input.event };
          await this.journal.record(
            accountId,
            [
              {
                contactId: contact.contact_id,
                type: CUSTOM_EVENT_ACTIVITY,
                actor,
                data: {
                  event_id: eventId,
                  event: input.event,
                  source_label: input.sourceLabel,
                  payload_truncated: payload.truncated,
                  contact_archived: contact.archived,
                  enrolled_executions: enrolled,
                },
              },
            ],
            [{ id: newId(), type: CUSTOM_EVENT_RECEIVED_EVENT, accountId, actor, occurredAt: now, payload: received }],
          );
          const result: CustomEventIngested = { status: 'ingested', enrolled_executions: enrolled };
          if (contact.archived) result.contact_archived = true;
          return result;
        });
      } catch (error) {
        const raced = error instanceof DomainError && error.code === 'duplicate_resource';
        if (!raced || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }
}

/** Rule 1 of {@link IngestCustomEventHandler}: the normalised identifiers, or 400 `validation_error`. */
export function identifiersOf(input: CustomEventInput): EventContactIdentifiers {
  const { contact } = input;
  const blank = (value: string | null) => (value === null || value.trim().length === 0 ? null : value.trim());
  const externalId = blank(contact.externalId);
  const rawEmail = blank(contact.email);
  const rawPhone = blank(contact.phone);
  if (externalId === null && rawEmail === null && rawPhone === null) {
    throw new ValidationFailedError([
      { field: 'contact', reason: 'identity_required', message: 'contact needs at least one of external_id, email, phone.' },
    ]);
  }
  const violations: FieldViolation[] = [];
  const email = rawEmail === null ? null : normalizeEmail(rawEmail);
  if (rawEmail !== null && email === null) violations.push({ field: 'contact.email', reason: 'invalid_format', message: 'contact.email is not a valid address.' });
  const phone = rawPhone === null ? null : normalizePhone(rawPhone);
  if (rawPhone !== null && phone === null) violations.push({ field: 'contact.phone', reason: 'invalid_phone', message: 'contact.phone does not normalise to E.164.' });
  if (violations.length > 0) throw new ValidationFailedError(violations);
  return { externalId, externalSource: blank(contact.externalSource), email, phone, firstName: blank(contact.firstName) };
}
