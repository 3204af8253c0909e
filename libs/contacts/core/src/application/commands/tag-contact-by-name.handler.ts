import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import { isCampaignSystemKey, TagContactByNameCommand, UntagContactByNameCommand } from '@leadflow/contacts-contracts';
import { ContactNotFoundError, TagManagedByServiceError } from '../../domain/contacts.errors';
import { DEFAULT_TAG_COLOR, isReservedTagName, TAG_NAME_MAX_LENGTH } from '../../domain/tag-rules';
import { ContactsReadModel } from '../ports/contacts.read-model.port';
import { ContactsRepository } from '../ports/contacts.repository.port';

/** Published command of the automations' `add_tag` step; see {@link TagContactByNameCommand}. Locks the contact row. */
@CommandHandler(TagContactByNameCommand)
export class TagContactByNameHandler implements ICommandHandler<TagContactByNameCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
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
      const [tag] = await this.contacts.ensureTags(accountId, [name], { color: DEFAULT_TAG_COLOR }, now);
      if (isCampaignSystemKey(tag.systemKey)) throw new TagManagedByServiceError([tag.id]);
      const attached = await this.contacts.attachTags(accountId, state.id, [tag.id], now);
      if (attached.length > 0) {
        await this.journal.record(accountId, [{ contactId: state.id, type: 'tag_added', actor, data: { tag_id: tag.id, tag_name: tag.name } }], []);
      }
      return { tagId: tag.id, added: attached.length > 0 };
    });
  }
}

/** Published command of the automations' `remove_tag` step; see {@link UntagContactByNameCommand}. */
@CommandHandler(UntagContactByNameCommand)
export class UntagContactByNameHandler implements ICommandHandler<UntagContactByNameCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly reads: ContactsReadModel,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
  ) {}

  execute({ accountId, contactId, tagName, actor }: UntagContactByNameCommand): Promise<{ removed: boolean }> {
    return this.unitOfWork.run(async () => {
      const state = await this.contacts.findContact(accountId, contactId, { lock: true });
      if (!state || state.mergedIntoId) throw new ContactNotFoundError();
      const tag = (await this.reads.tagsOfContact(accountId, state.id)).find((candidate) => candidate.name === tagName.trim());
      if (!tag) return { removed: false };
      if (isCampaignSystemKey(tag.system_key)) throw new TagManagedByServiceError([tag.id]);
      const removed = await this.contacts.detachTag(accountId, state.id, tag.id);
      if (removed) await this.journal.record(accountId, [{ contactId: state.id, type: 'tag_removed', actor, data: { tag_id: tag.id, tag_name: tag.name } }], []);
      return { removed };
    });
  }
}
