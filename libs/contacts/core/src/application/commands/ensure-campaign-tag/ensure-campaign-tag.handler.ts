import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, FieldViolation, newId, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import { campaignSystemKey, campaignTagName, EnsureCampaignTagCommand, TagView } from '@leadflow/contacts-contracts';
import { CAMPAIGN_SLUG_PATTERN, DEFAULT_TAG_COLOR, TAG_NAME_MAX_LENGTH } from '../../../domain/tag-rules';
import { TagRepository, TagState } from '../../ports/tag.repository.port';
import { toTagView } from '../../views';

/**
 * Published {@link EnsureCampaignTagCommand}: finds the tag by `campaign:<slug>` or creates
 * `Campagne : <name>` (suffixed ` (<slug>)` when another campaign already uses that name).
 * 400 `validation_error` for a slug outside `[a-z0-9][a-z0-9_-]{0,99}` or a blank name.
 */
@CommandHandler(EnsureCampaignTagCommand)
export class EnsureCampaignTagHandler implements ICommandHandler<EnsureCampaignTagCommand> {
  constructor(
    private readonly tags: TagRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, slug, name }: EnsureCampaignTagCommand): Promise<TagView> {
    const violations: FieldViolation[] = [];
    if (!CAMPAIGN_SLUG_PATTERN.test(slug)) violations.push({ field: 'slug', reason: 'invalid_format', message: 'Invalid campaign slug.' });
    if (name.trim().length === 0) violations.push({ field: 'name', reason: 'required', message: 'A campaign needs a name.' });
    if (violations.length > 0) throw new ValidationFailedError(violations);
    const systemKey = campaignSystemKey(slug);
    return this.unitOfWork.run(async () => {
      const existing = await this.tags.findTagBySystemKey(accountId, systemKey);
      if (existing) return toTagView(existing);
      let tagName = campaignTagName(name).slice(0, TAG_NAME_MAX_LENGTH);
      if (await this.tags.tagNameExists(accountId, tagName)) tagName = `${tagName.slice(0, TAG_NAME_MAX_LENGTH - slug.length - 3)} (${slug})`;
      const now = this.clock.now();
      const tag: TagState = {
        id: newId(),
        name: tagName,
        color: DEFAULT_TAG_COLOR,
        description: null,
        category: 'campaign',
        systemKey,
        createdAt: now,
        updatedAt: now,
      };
      await this.tags.insertTagIfAbsent(accountId, tag);
      const stored = await this.tags.findTagBySystemKey(accountId, systemKey);
      if (!stored) throw new Error(`Campaign tag ${systemKey} could not be created`);
      return toTagView(stored);
    });
  }
}
