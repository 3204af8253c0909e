import { newId } from '@leadflow/shared-kernel';
import { ACCOUNT, ACTOR, contactHandlersSetup, refusal } from '../../../testing/contact-handlers.kit';
import { CreateContactCommand } from '../create-contact/create-contact.command';
import { UpdateContactCommand } from './update-contact.command';

const setup = contactHandlersSetup;

describe('UpdateContactHandler', () => {
  it('rule 3: an identity held by another contact gives duplicate_resource; nothing is written', async () => {
    const { create, update, store } = setup();
    await create.execute(new CreateContactCommand(ACCOUNT, { email: 'taken@b.co' }, ACTOR));
    const contact = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'me@b.co', firstName: 'Me' }, ACTOR));
    const before = store.snapshot();
    const error = await refusal(update.execute(new UpdateContactCommand(ACCOUNT, contact.id, { email: 'taken@b.co', firstName: 'X' }, ACTOR)));
    expect(error.code).toBe('duplicate_resource');
    expect(error.details).toEqual({ conflicting_field: 'email' });
    expect(store.snapshot()).toBe(before);
  });

  it('rule 6: records lead_updated with the changes; the old primary identity is replaced', async () => {
    const { create, update, store } = setup();
    const contact = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'me@b.co' }, ACTOR));
    const view = await update.execute(new UpdateContactCommand(ACCOUNT, contact.id, { email: 'new@b.co' }, ACTOR));
    expect(store.identities.map((identity) => identity.value)).toEqual(['new@b.co']);
    expect(store.events.at(-1)).toMatchObject({
      type: 'lead_updated',
      payload: { contact_id: contact.id, contact: view, changes: { email: { previous: 'me@b.co', current: 'new@b.co' } } },
    });
    expect(store.entries.at(-1)).toMatchObject({ type: 'lead_updated', contactId: contact.id });
  });

  it('a merged contact answers not_found', async () => {
    const { create, update, store } = setup();
    const contact = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'me@b.co' }, ACTOR));
    store.contacts[0].mergedIntoId = newId();
    expect((await refusal(update.execute(new UpdateContactCommand(ACCOUNT, contact.id, { firstName: 'X' }, ACTOR)))).code).toBe('not_found');
  });

  it('no_fields comes before the lookup', async () => {
    const { update } = setup();
    expect((await refusal(update.execute(new UpdateContactCommand(ACCOUNT, newId(), {}, ACTOR)))).code).toBe('no_fields');
  });
});
