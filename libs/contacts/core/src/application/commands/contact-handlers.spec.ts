import type { QueryBus } from '@nestjs/cqrs';
import { Actor, asAccountId, DomainError, FixedClock, newId } from '@leadflow/shared-kernel';
import type { SystemView } from '@leadflow/accounts-contracts';
import { EnsureCampaignTagCommand } from '@leadflow/contacts-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import {
  InMemoryContactsReadModel,
  InMemoryContactsRepository,
  InMemoryContactsStore,
} from '../../testing/in-memory-contacts';
import { AttachTagsHandler } from './contact-tags.handlers';
import { AttachTagsCommand, CreateContactCommand, UpdateContactCommand } from './contact.commands';
import { CreateContactHandler } from './create-contact.handler';
import { EnsureCampaignTagHandler } from './tags.handlers';
import { UpdateContactHandler } from './update-contact.handler';

const ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000001');
const ACTOR: Actor = { type: 'api_key', id: 'k1', name: 'full', via: 'api_key' };
const MAIN = 'b0000000-0000-4000-8000-000000000001';
const INACTIVE = 'b0000000-0000-4000-8000-000000000002';
const OTHER = 'b0000000-0000-4000-8000-000000000003';
const SYSTEMS: SystemView[] = [
  { id: MAIN, name: 'Main', isMain: true, isActive: true },
  { id: INACTIVE, name: 'Laval', isMain: false, isActive: false },
  { id: OTHER, name: 'Québec', isMain: false, isActive: true },
];

function setup() {
  const store = new InMemoryContactsStore();
  const contacts = new InMemoryContactsRepository(store);
  const reads = new InMemoryContactsReadModel(store);
  const unitOfWork = new InMemoryUnitOfWork(store);
  const journal = new InMemoryJournal(store);
  const clock = new FixedClock(new Date('2026-04-01T10:00:00.000Z'));
  const queries = { execute: async () => SYSTEMS } as unknown as QueryBus;
  return {
    store,
    contacts,
    create: new CreateContactHandler(contacts, reads, unitOfWork, journal, queries, clock),
    update: new UpdateContactHandler(contacts, unitOfWork, journal, clock),
    attach: new AttachTagsHandler(contacts, reads, unitOfWork, journal, clock),
    campaign: new EnsureCampaignTagHandler(contacts, unitOfWork, clock),
  };
}

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

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

describe('AttachTagsHandler and campaign tags', () => {
  it('a campaign tag not on the contact refuses the whole request; one already on it is ignored', async () => {
    const { create, attach, campaign, contacts, store } = setup();
    const contact = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'me@b.co' }, ACTOR));
    const tag = await campaign.execute(new EnsureCampaignTagCommand(ACCOUNT, 'salon', 'Salon'));
    await contacts.insertTag(ACCOUNT, { ...store.tags[0], id: newId(), name: 'VIP', systemKey: null });
    const vip = store.tags[1].id;
    const refused = await refusal(attach.execute(new AttachTagsCommand(ACCOUNT, contact.id, [vip, tag.id], ACTOR)));
    expect(refused.code).toBe('tag_managed_by_service');
    expect(store.contactTags).toEqual([]);

    await contacts.attachTags(ACCOUNT, contact.id, [tag.id], new Date());
    const tags = await attach.execute(new AttachTagsCommand(ACCOUNT, contact.id, [vip, tag.id], ACTOR));
    expect(tags.map((t) => t.name)).toEqual(['Campagne : Salon', 'VIP']);
    expect(store.entries.filter((entry) => entry.type === 'tag_added')).toHaveLength(1);
  });

  it('EnsureCampaignTag is idempotent and names the tag "Campagne : <name>"', async () => {
    const { campaign, store } = setup();
    const first = await campaign.execute(new EnsureCampaignTagCommand(ACCOUNT, 'ete', 'Été'));
    const second = await campaign.execute(new EnsureCampaignTagCommand(ACCOUNT, 'ete', 'Summer'));
    expect(second).toEqual(first);
    expect(first).toMatchObject({ name: 'Campagne : Été', system_key: 'campaign:ete' });
    expect(store.tags).toHaveLength(1);
  });
});
