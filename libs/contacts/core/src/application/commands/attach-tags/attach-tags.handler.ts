import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, FieldViolation, isUuid, Journal, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import { isCampaignSystemKey, TagView } from '@leadflow/contacts-contracts';
import { TagManagedByServiceError } from '../../../domain/contacts.errors';
import { lockActiveContact } from '../../contact-tags/active-contact';
import { ContactsReadModel } from '../../ports/contacts.read-model.port';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { TagRepository } from '../../ports/tag.repository.port';
import { ContactTagRepository } from '../../ports/contact-tag.repository.port';
import { AttachTagsCommand } from './attach-tags.command';

/**
 * `POST /v1/contacts/{id}/tags`: 404 `not_found` for the contact; 400 `validation_error` listing each
 * `tag_ids[<i>]` that is not a string (`invalid_type`: `null`, a number…), not a UUID (`invalid_format`) or not a tag of the account
 * (`not_found_in_tenant`); 409 `tag_managed_by_service` when a campaign tag is not already on the
 * contact (nothing attached). Attaching twice is a no-op; a campaign tag already on the contact is
 * ignored. Returns the contact's tags; one `tag_added` activity entry per tag newly attached.
 */
@CommandHandler(AttachTagsCommand)
export class AttachTagsHandler implements ICommandHandler<AttachTagsCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly tags: TagRepository,
    private readonly contactTags: ContactTagRepository,
    private readonly reads: ContactsReadModel,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, contactId, tagIds, actor }: AttachTagsCommand): Promise<TagView[]> {
    return this.unitOfWork.run(async () => {
      const id = await lockActiveContact(this.contacts, accountId, contactId);
      const violations: FieldViolation[] = [];
      const wanted: { index: number; id: string }[] = [];
      tagIds.forEach((raw, index) => {
        if (isUuid(raw)) wanted.push({ index, id: raw.toLowerCase() });
        else if (typeof raw !== 'string') violations.push({ field: `tag_ids[${index}]`, reason: 'invalid_type', message: 'A tag id is a string (a UUID).' });
        else violations.push({ field: `tag_ids[${index}]`, reason: 'invalid_format', message: 'A tag id is a UUID.' });
      });
      const found = await this.tags.findTags(accountId, [...new Set(wanted.map((tag) => tag.id))]);
      const byId = new Map(found.map((tag) => [tag.id, tag]));
      for (const tag of wanted) {
        if (!byId.has(tag.id)) {
          violations.push({ field: `tag_ids[${tag.index}]`, reason: 'not_found_in_tenant', message: `Tag ${tag.id} was not found.` });
        }
      }
      if (violations.length > 0) throw new ValidationFailedError(violations, 'Some tags are invalid or were not found.');
      const current = new Set(await this.contactTags.contactTagIds(accountId, id));
      const managed = found.filter((tag) => isCampaignSystemKey(tag.systemKey) && !current.has(tag.id));
      if (managed.length > 0) throw new TagManagedByServiceError(managed.map((tag) => tag.id));
      const toAttach = found.filter((tag) => !isCampaignSystemKey(tag.systemKey) && !current.has(tag.id));
      const attached = await this.contactTags.attachTags(accountId, id, toAttach.map((tag) => tag.id), this.clock.now());
      await this.journal.record(
        accountId,
        attached.map((tagId) => ({ contactId: id, type: 'tag_added', actor, data: { tag_id: tagId, tag_name: byId.get(tagId)?.name ?? null } })),
        [],
      );
      return this.reads.tagsOfContact(accountId, id);
    });
  }
}
