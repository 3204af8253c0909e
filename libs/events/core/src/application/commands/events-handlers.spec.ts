import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import { EnrolCustomEventCommand } from '@leadflow/automations-contracts';
import { ContactCard, GetContactCardQuery, ResolveEventContactCommand, ResolvedEventContact } from '@leadflow/contacts-contracts';
import { QueueEmailCommand } from '@leadflow/messaging-contracts';
import { asAccountId, DomainError, FixedClock, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import { InMemoryEventsRepository } from '../../testing/in-memory-events';
import { CustomEventInput, IngestCustomEventCommand } from './ingest-custom-event/ingest-custom-event.command';
import { RegisterForEventCommand } from './register-for-event/register-for-event.command';
import { IngestCustomEventHandler } from './ingest-custom-event/ingest-custom-event.handler';
import { RegisterForEventHandler } from './register-for-event/register-for-event.handler';

const ACCOUNT = asAccountId('11111111-1111-4111-8111-111111111111');
const NOW = new Date('2026-11-22T15:00:00.000Z');

/** A bus answering each message type with a scripted function (an in-memory collaborator, not a mock library). */
function bus(handlers: Map<unknown, (message: any) => unknown>): CommandBus & QueryBus { // eslint-disable-line @typescript-eslint/no-explicit-any
  const sent: unknown[] = [];
  return {
    sent,
    execute: async (message: object) => {
      sent.push(message);
      const handler = handlers.get(message.constructor);
      if (!handler) throw new Error(`no handler for ${message.constructor.name}`);
      return handler(message);
    },
  } as unknown as CommandBus & QueryBus;
}

const input = (contact: Partial<CustomEventInput['contact']> = {}): CustomEventInput => ({
  event: 'inscription',
  contact: { externalId: null, externalSource: null, email: 'a@b.co', phone: null, firstName: null, createIfMissing: true, ...contact },
  payload: { message: 'x' },
  customFields: {},
  sourceLabel: null,
});

describe('IngestCustomEventHandler', () => {
  const setup = (resolve: (command: ResolveEventContactCommand) => ResolvedEventContact | null, enrolled = 2) => {
    const repository = new InMemoryEventsRepository();
    const unitOfWork = new InMemoryUnitOfWork();
    const journal = new InMemoryJournal();
    const enrolments: EnrolCustomEventCommand[] = [];
    const commands = bus(
      new Map<unknown, (message: any) => unknown>([ // eslint-disable-line @typescript-eslint/no-explicit-any
        [ResolveEventContactCommand, resolve],
        [EnrolCustomEventCommand, (command: EnrolCustomEventCommand) => (enrolments.push(command), { executionIds: Array.from({ length: enrolled }, (_, i) => `x${i}`) })],
      ]),
    );
    const handler = new IngestCustomEventHandler(repository, unitOfWork, journal, commands, new FixedClock(NOW));
    return { handler, repository, unitOfWork, journal, enrolments };
  };

  it('records the event, a custom_event entry, and enrols with the capped payload and the event id', async () => {
    const { handler, repository, journal, enrolments } = setup(() => ({ contact_id: 'c1', created: false, archived: false }));
    const result = await handler.execute(new IngestCustomEventCommand(ACCOUNT, input(), SYSTEM_ACTOR, 'k1'));
    expect(result).toEqual({ status: 'ingested', enrolled_executions: 2 });
    expect(repository.customEvents).toEqual([expect.objectContaining({ contactId: 'c1', name: 'inscription', enrolledExecutions: 2, apiKeyId: 'k1' })]);
    expect(enrolments).toEqual([expect.objectContaining({ contactId: 'c1', eventName: 'inscription', eventData: { message: 'x' }, eventId: repository.customEvents[0].id })]);
    expect(journal.entries).toEqual([expect.objectContaining({ contactId: 'c1', type: 'custom_event' })]);
  });

  it('writes a custom_event_received outbox event naming the contact (the lead score follows it)', async () => {
    const { handler, repository, journal } = setup(() => ({ contact_id: 'c1', created: false, archived: false }));
    await handler.execute(new IngestCustomEventCommand(ACCOUNT, input(), SYSTEM_ACTOR, 'k1'));
    expect(journal.events).toEqual([
      expect.objectContaining({
        type: 'custom_event_received',
        accountId: ACCOUNT,
        occurredAt: NOW,
        payload: { contact_id: 'c1', event_id: repository.customEvents[0].id, event: 'inscription' },
      }),
    ]);
  });

  it('an archived contact: recorded, not enrolled, contact_archived true', async () => {
    const { handler, repository, enrolments } = setup(() => ({ contact_id: 'c1', created: false, archived: true }));
    expect(await handler.execute(new IngestCustomEventCommand(ACCOUNT, input(), SYSTEM_ACTOR, null))).toEqual({ status: 'ingested', enrolled_executions: 0, contact_archived: true });
    expect(enrolments).toEqual([]);
    expect(repository.customEvents).toHaveLength(1);
  });

  it('no contact and create_if_missing false: 404 contact_not_found, nothing recorded', async () => {
    const { handler, repository, journal } = setup(() => null);
    await expect(handler.execute(new IngestCustomEventCommand(ACCOUNT, input({ createIfMissing: false }), SYSTEM_ACTOR, null))).rejects.toMatchObject({ code: 'contact_not_found' });
    expect(repository.customEvents).toEqual([]);
    expect(journal.entries).toEqual([]);
    expect(journal.events).toEqual([]);
  });

  it('a lost identity race (409 duplicate_resource) starts the transaction over, at most 3 times', async () => {
    let calls = 0;
    const { handler, unitOfWork } = setup(() => {
      calls += 1;
      if (calls < 3) throw new DomainError('duplicate_resource', 'raced', null);
      return { contact_id: 'c1', created: false, archived: false };
    });
    expect((await handler.execute(new IngestCustomEventCommand(ACCOUNT, input(), SYSTEM_ACTOR, null))).enrolled_executions).toBe(2);
    expect(unitOfWork.runs).toBe(3);
    calls = -10;
    await expect(handler.execute(new IngestCustomEventCommand(ACCOUNT, input(), SYSTEM_ACTOR, null))).rejects.toMatchObject({ code: 'duplicate_resource' });
  });

  it('identifiers: at least one, a valid email, a phone normalising to E.164 (400 validation_error)', async () => {
    const { handler } = setup(() => ({ contact_id: 'c1', created: false, archived: false }));
    const refuse = (contact: Partial<CustomEventInput['contact']>) => handler.execute(new IngestCustomEventCommand(ACCOUNT, input(contact), SYSTEM_ACTOR, null));
    await expect(refuse({ email: null })).rejects.toMatchObject({ code: 'validation_error', details: [{ field: 'contact', reason: 'identity_required' }] });
    await expect(refuse({ email: 'nope' })).rejects.toMatchObject({ details: [{ field: 'contact.email', reason: 'invalid_format' }] });
    await expect(refuse({ email: null, phone: '12' })).rejects.toMatchObject({ details: [{ field: 'contact.phone', reason: 'invalid_phone' }] });
  });
});

describe('RegisterForEventHandler', () => {
  const card: ContactCard = { id: 'c1', first_name: 'Nadia', last_name: null, email: 'nadia@exemple.test', phone: null, company: null, archived: false };
  const setup = async () => {
    const repository = new InMemoryEventsRepository();
    await repository.insertEvents(ACCOUNT, [
      {
        id: 'e1',
        accountId: ACCOUNT,
        slug: 'salon',
        name: 'Salon',
        status: 'published',
        languages: ['fr', 'en'],
        createdAt: NOW,
        editions: [{ id: 'd1', eventId: 'e1', name: 'Montréal', startsAt: new Date('2027-03-10T14:00:00Z'), endsAt: new Date('2027-03-12T22:00:00Z'), status: 'open', position: 0 }],
      },
    ]);
    const emails: QueueEmailCommand[] = [];
    const messages = bus(
      new Map<unknown, (message: any) => unknown>([ // eslint-disable-line @typescript-eslint/no-explicit-any
        [GetContactCardQuery, (query: GetContactCardQuery) => (query.contactId === 'c1' ? card : null)],
        [QueueEmailCommand, (command: QueueEmailCommand) => (emails.push(command), { id: `m${emails.length}`, status: 'queued', from: { email: 'x@y.z', name: null } })],
      ]),
    );
    const handler = new RegisterForEventHandler(repository, new InMemoryUnitOfWork(), new InMemoryJournal(), messages, messages, new FixedClock(NOW));
    const register = (request: Partial<RegisterForEventCommand['request']> = {}) =>
      handler.execute(new RegisterForEventCommand(ACCOUNT, { contactId: 'c1', eventId: null, eventSlug: 'salon', editionId: null, language: null, ...request }, SYSTEM_ACTOR));
    return { repository, emails, register };
  };

  it('first → created with one French confirmation; repeat → same registration, language updated, decliner registered, opt-out kept, no second email', async () => {
    const { repository, emails, register } = await setup();
    const first = await register();
    expect(first).toMatchObject({ created: true, registration: { edition_id: 'd1', language: 'fr', status: 'registered', opted_out: false } });
    expect(emails).toHaveLength(1);
    expect(emails[0].email).toMatchObject({ to: 'nadia@exemple.test', type: 'registration_confirmation', subject: 'Inscription confirmée : Salon (Montréal)' });
    repository.registrations[0].status = 'declined';
    repository.registrations[0].optedOutAt = NOW;
    const repeat = await register({ language: 'en' });
    expect(repeat).toMatchObject({ created: false, registration: { id: first.registration.id, language: 'en', status: 'registered', opted_out: true } });
    expect(emails).toHaveLength(1);
  });

  it('404 resource contact / event, nothing written', async () => {
    const { repository, register } = await setup();
    await expect(register({ contactId: 'other' })).rejects.toMatchObject({ code: 'resource_not_found', details: { resource: 'contact' } });
    await expect(register({ eventSlug: 'nope' })).rejects.toMatchObject({ code: 'resource_not_found', details: { resource: 'event' } });
    expect(repository.registrations).toEqual([]);
  });
});
