import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { isCampaignSystemKey, UntagContactByNameCommand } from '@leadflow/contacts-contracts';
import { ContactNotFoundError, TagManagedByServiceError } from '../../../domain/contacts.errors';
import { ContactsReadModel } from '../../ports/contacts.read-model.port';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { ContactTagRepository } from '../../ports/contact-tag.repository.port';

/** Published command of the automations' `remove_tag` step; see {@link UntagContactByNameCommand}. */
@CommandHandler(UntagContactByNameCommand)
export class UntagContactByNameHandler implements ICommandHandler<UntagContactByNameCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly contactTags: ContactTagRepository,
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
      const removed = await this.contactTags.detachTag(accountId, state.id, tag.id);
      if (removed) await this.journal.record(accountId, [{ contactId: state.id, type: 'tag_removed', actor, data: { tag_id: tag.id, tag_name: tag.name } }], []);
      return { removed };
    });
  }
}
