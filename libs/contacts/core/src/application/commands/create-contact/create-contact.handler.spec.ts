import { newId } from '@leadflow/shared-kernel';
import { ACCOUNT, ACTOR, contactHandlersSetup, INACTIVE, MAIN, OTHER, refusal } from '../../../testing/contact-handlers.kit';
import { CreateContactCommand } from './create-contact.command';

const setup = contactHandlersSetup;

describe('CreateContactHandler', () => {
  it('creates with source api in the main System and records contact_created (activity and outbox)', async () => {
    const { create, store } = setup();
    const view = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'A@B.co' }, ACTOR));
    expect(view).toMatchObject({ email: 'a@b.co', source: 'api', system_id: MAIN });
    expect(store.entries).toEqual([expect.objectContaining({ type: 'contact_created', contactId: view.id, actor: ACTOR })]);
    expect(store.events).toEqual([expect.objectContaining({ type: 'contact_created', payload: { contact_id: view.id, contact: view } })]);
  });

  it.each([
    [INACTIVE, MAIN],
    [OTHER, OTHER],
    [OTHER.toUpperCase(), OTHER],
  ])('system_id %s is placed in %s', async (systemId, expected) => {
    const { create } = setup();
    expect((await create.execute(new CreateContactCommand(ACCOUNT, { email: 'a@b.co', systemId }, ACTOR))).system_id).toBe(expected);
  });

  it.each([newId(), 'main'])('an unknown system_id (%s) gives system_not_found and creates nothing', async (systemId) => {
    const { create, store } = setup();
    expect((await refusal(create.execute(new CreateContactCommand(ACCOUNT, { email: 'a@b.co', systemId }, ACTOR)))).code).toBe('system_not_found');
    expect(store.contacts).toEqual([]);
  });

  it('validation comes before the System lookup', async () => {
    const { create } = setup();
    expect((await refusal(create.execute(new CreateContactCommand(ACCOUNT, { phone: '1', systemId: newId() }, ACTOR)))).code).toBe('validation_error');
  });

  it('one contact holding the identities: duplicate_contact with it in data and the conflicting fields', async () => {
    const { create, store } = setup();
    const existing = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'a@b.co', phone: '5145550123' }, ACTOR));
    const error = await refusal(create.execute(new CreateContactCommand(ACCOUNT, { email: 'A@b.co', phone: '+15145550123' }, ACTOR)));
    expect(error.code).toBe('duplicate_contact');
    expect(error.details).toEqual({ conflicting_fields: ['email', 'phone'] });
    expect(error.options.extra).toEqual({ data: existing });
    expect(store.contacts).toHaveLength(1);
  });

  it('identities of two contacts: duplicate_resource without a contact', async () => {
    const { create } = setup();
    await create.execute(new CreateContactCommand(ACCOUNT, { email: 'a@b.co' }, ACTOR));
    await create.execute(new CreateContactCommand(ACCOUNT, { phone: '5145550123' }, ACTOR));
    const error = await refusal(create.execute(new CreateContactCommand(ACCOUNT, { email: 'a@b.co', phone: '5145550123' }, ACTOR)));
    expect(error.code).toBe('duplicate_resource');
    expect(error.options.extra).toBeUndefined();
  });

  it('an identity of a merged contact points at its survivor', async () => {
    const { create, store } = setup();
    const absorbed = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'old@b.co' }, ACTOR));
    const survivor = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'new@b.co' }, ACTOR));
    store.contacts.find((contact) => contact.id === absorbed.id)!.mergedIntoId = survivor.id;
    const error = await refusal(create.execute(new CreateContactCommand(ACCOUNT, { email: 'old@b.co' }, ACTOR)));
    expect(error.options.extra).toEqual({ data: survivor });
  });

  it('losing a race on the unique identity answers duplicate_contact with the winner and rolls back', async () => {
    const { create, contacts, store } = setup();
    const winner = { id: newId() };
    contacts.beforeIdentityInsert = () => {
      contacts.beforeIdentityInsert = null;
      // A concurrent request commits the same email between our check and our insert.
      const loser = { ...store.contacts[0] };
      store.commitConcurrently((committed) => {
        committed.contacts.push({ ...loser, id: winner.id, email: 'race@b.co' });
        committed.identities.push({ accountId: ACCOUNT, contactId: winner.id, kind: 'email', value: 'race@b.co', isPrimary: true });
      });
    };
    const error = await refusal(create.execute(new CreateContactCommand(ACCOUNT, { email: 'race@b.co' }, ACTOR)));
    expect(error.code).toBe('duplicate_contact');
    expect((error.options.extra as { data: { id: string } }).data.id).toBe(winner.id);
    expect(store.contacts.map((contact) => contact.id)).toEqual([winner.id]);
    expect(store.events).toEqual([]);
  });
});
