import { asAccountId, FixedClock } from '@leadflow/shared-kernel';
import { ExportContactsConfigurationQuery, ProvisionTagsCommand, ResetContactsDataCommand, TagSpec } from '@leadflow/contacts-contracts';
import { ACCOUNT, ACTOR, contactHandlersSetup } from '../../../testing/contact-handlers.kit';
import { InMemoryContactsSandboxData } from '../../../testing/in-memory-contacts-sandbox-data';
import { ExportContactsConfigurationHandler } from '../../queries/export-contacts-configuration/export-contacts-configuration.handler';
import { CreateContactCommand } from '../create-contact/create-contact.command';
import { ProvisionTagsHandler } from '../provision-tags/provision-tags.handler';
import { ResetContactsDataHandler } from './reset-contacts-data.handler';

const SANDBOX = asAccountId('a0000000-0000-4000-8000-000000000002');
const VIP: TagSpec = { name: 'VIP', color: '#ff0000', description: 'Best clients', category: null, systemKey: null };

/** The contacts fakes with the sandbox handlers over them; one contact with a tag in ACCOUNT and in SANDBOX. */
async function setup() {
  const kit = contactHandlersSetup();
  const sandbox = new InMemoryContactsSandboxData(kit.store);
  const clock = new FixedClock(new Date('2026-04-01T10:00:00.000Z'));
  const provision = new ProvisionTagsHandler(sandbox, clock);
  const reset = new ResetContactsDataHandler(sandbox);
  const exportConfiguration = new ExportContactsConfigurationHandler(sandbox);
  for (const accountId of [ACCOUNT, SANDBOX]) {
    await kit.definitions.insertDefinitions(accountId, [{ id: `field-${accountId}`, name: 'Budget', type: 'number', options: null }]);
    const { VIP: tagId } = await provision.execute(new ProvisionTagsCommand(accountId, [VIP]));
    const contact = await kit.create.execute(new CreateContactCommand(accountId, { email: 'me@b.co' }, ACTOR));
    await kit.contactTags.attachTags(accountId, contact.id, [tagId], clock.now());
  }
  return { ...kit, provision, reset, exportConfiguration };
}

describe('Test mode handlers of the contacts context (issue 15 item 4)', () => {
  it("reset deletes the sandbox's contacts, identities and tags on contacts, answers rows deleted per table, keeps its tags and custom fields and every row of another account", async () => {
    const { reset, store } = await setup();
    const deleted = await reset.execute(new ResetContactsDataCommand(SANDBOX));
    expect(deleted).toEqual({
      'contacts.contact_identities': 1,
      'contacts.contact_tags': 1,
      'contacts.contact_notes': 0,
      'contacts.contact_external_ids': 0,
      'contacts.lead_captures': 0,
      'contacts.sms_handoffs': 0,
      'contacts.presuasion_submissions': 0,
      'contacts.email_unsubscribes': 0,
      'contacts.contacts': 1,
    });
    expect(store.contacts.map((row) => row.accountId)).toEqual([ACCOUNT]);
    expect(store.identities.map((row) => row.accountId)).toEqual([ACCOUNT]);
    expect(store.contactTags.map((row) => row.accountId)).toEqual([ACCOUNT]);
    expect(store.tags.map((row) => row.accountId)).toEqual([ACCOUNT, SANDBOX]);
    expect(store.definitions.map((row) => row.accountId)).toEqual([ACCOUNT, SANDBOX]);
  });

  it('reset of an account without data deletes nothing and answers 0 per table', async () => {
    const { reset, store } = await setup();
    const deleted = await reset.execute(new ResetContactsDataCommand(asAccountId('a0000000-0000-4000-8000-000000000009')));
    expect(Object.values(deleted).every((count) => count === 0)).toBe(true);
    expect(store.contacts).toHaveLength(2);
  });

  it('provision creates the tags as given, each with a new id, and answers { name: id }', async () => {
    const { provision, store } = await setup();
    const ids = await provision.execute(new ProvisionTagsCommand(SANDBOX, [{ ...VIP, name: 'Gold' }, { ...VIP, name: 'Silver', systemKey: 'campaign:silver' }]));
    expect(Object.keys(ids)).toEqual(['Gold', 'Silver']);
    const created = store.tags.filter((tag) => tag.accountId === SANDBOX && tag.name !== 'VIP');
    expect(created.map((tag) => [tag.name, tag.id, tag.systemKey, tag.createdAt.toISOString()])).toEqual([
      ['Gold', ids.Gold, null, '2026-04-01T10:00:00.000Z'],
      ['Silver', ids.Silver, 'campaign:silver', '2026-04-01T10:00:00.000Z'],
    ]);
  });

  it("export answers the account's custom fields and tags, never another account's", async () => {
    const { exportConfiguration } = await setup();
    expect(await exportConfiguration.execute(new ExportContactsConfigurationQuery(SANDBOX))).toEqual({
      customFields: [{ name: 'Budget', type: 'number', options: null }],
      tags: [VIP],
    });
  });
});
