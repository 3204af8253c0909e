import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { isUuid, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { isCampaignSystemKey } from '@leadflow/contacts-contracts';
import { TagManagedByServiceError, TagNotFoundError } from '../../../domain/contacts.errors';
import { lockActiveContact } from '../../contact-tags/active-contact';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { TagRepository } from '../../ports/tag.repository.port';
import { ContactTagRepository } from '../../ports/contact-tag.repository.port';
import { DetachTagCommand } from './detach-tag.command';

/**
 * `DELETE /v1/contacts/{id}/tags/{tag_id}` (204): 404 `not_found` for the contact or a tag outside the
 * account; 409 `tag_managed_by_service` for a campaign tag. A tag that is not on the contact is a no-op.
 */
@CommandHandler(DetachTagCommand)
export class DetachTagHandler implements ICommandHandler<DetachTagCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly tags: TagRepository,
    private readonly contactTags: ContactTagRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
  ) {}

  async execute({ accountId, contactId, tagId, actor }: DetachTagCommand): Promise<void> {
    await this.unitOfWork.run(async () => {
      const id = await lockActiveContact(this.contacts, accountId, contactId);
      const [tag] = isUuid(tagId) ? await this.tags.findTags(accountId, [tagId.toLowerCase()]) : [];
      if (!tag) throw new TagNotFoundError();
      if (isCampaignSystemKey(tag.systemKey)) throw new TagManagedByServiceError([tag.id]);
      if (await this.contactTags.detachTag(accountId, id, tag.id)) {
        await this.journal.record(accountId, [{ contactId: id, type: 'tag_removed', actor, data: { tag_id: tag.id, tag_name: tag.name } }], []);
      }
    });
  }
}
