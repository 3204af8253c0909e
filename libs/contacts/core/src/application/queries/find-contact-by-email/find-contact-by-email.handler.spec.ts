import type { QueryBus } from '@nestjs/cqrs';
import { Actor, asAccountId, FixedClock } from '@leadflow/shared-kernel';
import type { SystemView } from '@leadflow/accounts-contracts';
import { FindContactByEmailQuery, MergeContactCommand, SetEmailUnsubscribedCommand } from '@leadflow/contacts-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import { InMemoryEmailUnsubscribes } from '../../../testing/in-memory-email-unsubscribes';
import { inMemoryContactPorts, InMemoryContactsReadModel, InMemoryContactsStore } from '../../../testing/in-memory-contacts';
import { CreateContactCommand } from '../../commands/create-contact/create-contact.command';
import { CreateContactHandler } from '../../commands/create-contact/create-contact.handler';
import { MergeContactHandler } from '../../commands/merge-contact/merge-contact.handler';
import { SetEmailUnsubscribedHandler } from '../../commands/set-email-unsubscribed/set-email-unsubscribed.handler';
import { FindContactByEmailHandler } from './find-contact-by-email.handler';

const ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000001');
const OTHER_ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000002');
const ACTOR: Actor = { type: 'api_key', id: 'k1', name: 'full', via: 'api_key' };
const SYSTEMS: SystemView[] = [{ id: 'b0000000-0000-4000-8000-000000000001', name: 'Main', isMain: true, isActive: true }];

describe('FindContactByEmailQuery (messaging: who holds a recipient address)', () => {
  const store = new InMemoryContactsStore();
  const { contacts, identities, definitions } = inMemoryContactPorts(store);
  const unitOfWork = new InMemoryUnitOfWork(store);
  const journal = new InMemoryJournal(store);
  const unsubscribes = new InMemoryEmailUnsubscribes();
  const clock = new FixedClock(new Date('2026-04-01T10:00:00.000Z'));
  const queries = { execute: async () => SYSTEMS } as unknown as QueryBus;
  const create = new CreateContactHandler(contacts, identities, definitions, new InMemoryContactsReadModel(store), unitOfWork, journal, queries, clock);
  const handler = new FindContactByEmailHandler(contacts, identities, unsubscribes);
  const find = (email: string, accountId = ACCOUNT) => handler.execute(new FindContactByEmailQuery(accountId, email));

  it('finds the contact holding the address (any case) with its card, and nothing in another account', async () => {
    const contact = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'nadia@example.com', firstName: 'Nadia' }, ACTOR));

    expect(await find('NADIA@example.com')).toEqual({
      contact: expect.objectContaining({ id: contact.id, first_name: 'Nadia', email: 'nadia@example.com', archived: false }),
      unsubscribed: false,
    });
    expect(await find('nadia@example.com', OTHER_ACCOUNT)).toEqual({ contact: null, unsubscribed: false });
    expect(store.contacts).toHaveLength(1); // reads only
  });

  it('resolves a merged holder to its survivor', async () => {
    const absorbed = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'absorbe@example.com' }, ACTOR));
    const survivor = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'survivant@example.com' }, ACTOR));
    await new MergeContactHandler(contacts, unitOfWork, journal, clock).execute(new MergeContactCommand(ACCOUNT, absorbed.id, survivor.id, ACTOR));

    expect((await find('absorbe@example.com')).contact?.id).toBe(survivor.id);
  });

  it('reports the unsubscribe list whether or not a contact holds the address, and finds nothing for a non-address', async () => {
    await new SetEmailUnsubscribedHandler(unsubscribes, clock).execute(new SetEmailUnsubscribedCommand(ACCOUNT, 'parti@example.com', true));

    expect(await find('Parti@example.com')).toEqual({ contact: null, unsubscribed: true });
    expect(await find('pas une adresse')).toEqual({ contact: null, unsubscribed: false });
  });
});
