import { newId } from '@leadflow/shared-kernel';
import { EnsureCampaignTagCommand } from '@leadflow/contacts-contracts';
import { ACCOUNT, ACTOR, contactHandlersSetup, refusal } from '../../../testing/contact-handlers.kit';
import { CreateContactCommand } from '../create-contact/create-contact.command';
import { AttachTagsCommand } from './attach-tags.command';

const setup = contactHandlersSetup;

describe('AttachTagsHandler and campaign tags', () => {
  it('a campaign tag not on the contact refuses the whole request; one already on it is ignored', async () => {
    const { create, attach, campaign, tags: tagRepository, contactTags, store } = setup();
    const contact = await create.execute(new CreateContactCommand(ACCOUNT, { email: 'me@b.co' }, ACTOR));
    const tag = await campaign.execute(new EnsureCampaignTagCommand(ACCOUNT, 'salon', 'Salon'));
    await tagRepository.insertTag(ACCOUNT, { ...store.tags[0], id: newId(), name: 'VIP', systemKey: null });
    const vip = store.tags[1].id;
    const refused = await refusal(attach.execute(new AttachTagsCommand(ACCOUNT, contact.id, [vip, tag.id], ACTOR)));
    expect(refused.code).toBe('tag_managed_by_service');
    expect(store.contactTags).toEqual([]);

    await contactTags.attachTags(ACCOUNT, contact.id, [tag.id], new Date());
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
