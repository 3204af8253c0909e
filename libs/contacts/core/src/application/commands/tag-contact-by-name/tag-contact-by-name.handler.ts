import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import { isCampaignSystemKey, TagContactByNameCommand } from '@leadflow/contacts-contracts';
import { ContactNotFoundError, TagManagedByServiceError } from '../../../domain/contacts.errors';
import { DEFAULT_TAG_COLOR, isReservedTagName, TAG_NAME_MAX_LENGTH } from '../../../domain/tag-rules';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { TagRepository } from '../../ports/tag.repository.port';
import { ContactTagRepository } from '../../ports/contact-tag.repository.port';

/** Published command of the automations' `add_tag` step; see {@link TagContactByNameCommand}. Locks the contact row. */
@CommandHandler(TagContactByNameCommand)
export class TagContactByNameHandler implements ICommandHandler<TagContactByNameCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly tags: TagRepository,
    private readonly contactTags: ContactTagRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, contactId, tagName, actor }: TagContactByNameCommand): Promise<{ tagId: string; added: boolean }> {
    return this.unitOfWork.run(async () => {
      const name = tagName.trim();
      if (name.length === 0 || name.length > TAG_NAME_MAX_LENGTH) {
        throw new ValidationFailedError([{ field: 'tag', reason: name.length === 0 ? 'required' : 'too_long' }]);
      }
      if (isReservedTagName(name)) throw new ValidationFailedError([{ field: 'tag', reason: 'reserved_prefix' }]);
      const state = await this.contacts.findContact(accountId, contactId, { lock: true });
      if (!state || state.mergedIntoId) throw new ContactNotFoundError();
      const now = this.clock.now();
      const [tag] = await this.tags.ensureTags(accountId, [name], { color: DEFAULT_TAG_COLOR }, now);
      if (isCampaignSystemKey(tag.systemKey)) throw new TagManagedByServiceError([tag.id]);
      const attached = await this.contactTags.attachTags(accountId, state.id, [tag.id], now);
      if (attached.length > 0) {
        await this.journal.record(accountId, [{ contactId: state.id, type: 'tag_added', actor, data: { tag_id: tag.id, tag_name: tag.name } }], []);
      }
      return { tagId: tag.id, added: attached.length > 0 };
    });
  }
}
