import type { QueryBus } from '@nestjs/cqrs';
import { Actor, asAccountId, DomainError, FixedClock } from '@leadflow/shared-kernel';
import type { SystemView } from '@leadflow/accounts-contracts';
import { FindOrCreateContactCommand, GetContactCardQuery, MergeContactCommand, SetEmailUnsubscribedCommand } from '@leadflow/contacts-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import { InMemoryEmailUnsubscribes } from '../../../testing/in-memory-email-unsubscribes';
import { inMemoryContactPorts, InMemoryContactsReadModel, InMemoryContactsStore } from '../../../testing/in-memory-contacts';
import { GetContactCardHandler } from '../../queries/get-contact-card/get-contact-card.handler';
import { CreateContactCommand } from '../create-contact/create-contact.command';
import { CreateContactHandler } from '../create-contact/create-contact.handler';
import { MergeContactHandler } from '../merge-contact/merge-contact.handler';
import { SetEmailUnsubscribedHandler } from '../set-email-unsubscribed/set-email-unsubscribed.handler';
import { FindOrCreateContactHandler } from './find-or-create-contact.handler';

const ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000001');
const OTHER_ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000002');
const ACTOR: Actor = { type: 'api_key', id: 'k1', name: 'full', via: 'api_key' };
const SYSTEMS: SystemView[] = [{ id: 'b0000000-0000-4000-8000-000000000001', name: 'Main', isMain: true, isActive: true }];

function setup() {
  const store = new InMemoryContactsStore();
  const { contacts, identities, definitions } = inMemoryContactPorts(store);
  const unitOfWork = new InMemoryUnitOfWork(store);
  const journal = new InMemoryJournal(store);
  const unsubscribes = new InMemoryEmailUnsubscribes();
  const clock = new FixedClock(new Date('2026-04-01T10:00:00.000Z'));
  const queries = { execute: async () => SYSTEMS } as unknown as QueryBus;
  const create = new CreateContactHandler(contacts, identities, definitions, new InMemoryContactsReadModel(store), unitOfWork, journal, queries, clock);
  const find = new FindOrCreateContactHandler(contacts, identities, unsubscribes, unitOfWork, journal, queries, clock);
  return {
    store,
    unsubscribes,
    create: (input: CreateContactCommand['input'], accountId = ACCOUNT) => create.execute(new CreateContactCommand(accountId, input, ACTOR)),
    find: (prospect: FindOrCreateContactCommand['prospect'], accountId = ACCOUNT) => find.execute(new FindOrCreateContactCommand(accountId, prospect, ACTOR, 'quote')),
    merge: new MergeContactHandler(contacts, unitOfWork, journal, clock),
    card: new GetContactCardHandler(contacts),
    unsubscribe: new SetEmailUnsubscribedHandler(unsubscribes, clock),
  };
}

describe('FindOrCreateContactCommand (quote sending: the lead\'s contact, never duplicated)', () => {
  it('finds the contact by email (any case), then by phone (any format)', async () => {
    const t = setup();
    const byEmail = await t.create({ email: 'nadia@example.com' });
    const byPhone = await t.create({ phone: '514 555 0142' });
    expect(await t.find({ email: 'Nadia@Example.com', phone: '(514) 555-0142' })).toEqual({ contact_id: byEmail.id, created: false, email_unsubscribed: false });
    expect(await t.find({ email: 'someone@else.com', phone: '(514) 555-0142' })).toEqual({ contact_id: byPhone.id, created: false, email_unsubscribed: false });
  });

  it('uses the linked contact, or its survivor when it was merged', async () => {
    const t = setup();
    const absorbed = await t.create({ email: 'a@example.com' });
    const survivor = await t.create({ email: 'b@example.com' });
    await t.merge.execute(new MergeContactCommand(ACCOUNT, absorbed.id, survivor.id, ACTOR));
    expect((await t.find({ contactId: absorbed.id, email: 'new@example.com' })).contact_id).toBe(survivor.id);
  });

  it('creates the contact (source quote) with contact_created activity and outbox event: the contact-created trigger', async () => {
    const t = setup();
    const found = await t.find({ email: 'Nadia@Example.com', phone: 'not a phone', firstName: 'Nadia', lastName: 'Bélanger', company: 'Condos' });
    expect(found).toMatchObject({ created: true, email_unsubscribed: false });
    expect(t.store.contacts).toEqual([expect.objectContaining({ id: found.contact_id, email: 'nadia@example.com', phone: null, firstName: 'Nadia', source: 'quote' })]);
    expect(t.store.entries).toEqual([expect.objectContaining({ type: 'contact_created', contactId: found.contact_id })]);
    expect(t.store.events).toEqual([expect.objectContaining({ type: 'contact_created', payload: expect.objectContaining({ contact_id: found.contact_id }) })]);
    expect(await t.find({ email: 'nadia@example.com' })).toEqual({ contact_id: found.contact_id, created: false, email_unsubscribed: false });
    expect(t.store.contacts).toHaveLength(1);
  });

  it('another account\'s contact is never found', async () => {
    const t = setup();
    const theirs = await t.create({ email: 'nadia@example.com' }, OTHER_ACCOUNT);
    const mine = await t.find({ contactId: theirs.id, email: 'nadia@example.com' });
    expect(mine.created).toBe(true);
    expect(mine.contact_id).not.toBe(theirs.id);
  });

  it('tells whether the email is on the unsubscribe list', async () => {
    const t = setup();
    await t.unsubscribe.execute(new SetEmailUnsubscribedCommand(ACCOUNT, ' Nadia@Example.com ', true));
    expect((await t.find({ email: 'nadia@example.com' })).email_unsubscribed).toBe(true);
    expect((await t.find({ email: 'nadia@example.com' }, OTHER_ACCOUNT)).email_unsubscribed).toBe(false);
    await t.unsubscribe.execute(new SetEmailUnsubscribedCommand(ACCOUNT, 'nadia@example.com', false));
    expect((await t.find({ email: 'nadia@example.com' })).email_unsubscribed).toBe(false);
  });

  it('neither a usable email nor phone: 400 validation_error, nothing written', async () => {
    const t = setup();
    const error = await t.find({ email: 'nope', phone: '123' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('validation_error');
    expect(t.store.contacts).toEqual([]);
  });
});

describe('GetContactCardQuery', () => {
  it('answers the card, null for a merged or another account\'s contact', async () => {
    const t = setup();
    const contact = await t.create({ email: 'nadia@example.com', firstName: 'Nadia' });
    expect(await t.card.execute(new GetContactCardQuery(ACCOUNT, contact.id))).toEqual({
      id: contact.id,
      first_name: 'Nadia',
      last_name: null,
      email: 'nadia@example.com',
      phone: null,
      company: null,
      archived: false,
    });
    expect(await t.card.execute(new GetContactCardQuery(OTHER_ACCOUNT, contact.id))).toBeNull();
  });
});
