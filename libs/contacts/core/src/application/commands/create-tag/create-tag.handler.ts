import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, newId, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import type { TagView } from '@leadflow/contacts-contracts';
import { normalizeTagInput } from '../../../domain/tag-rules';
import { TagRepository, TagState } from '../../ports/tag.repository.port';
import { toTagView } from '../../views';
import { CreateTagCommand } from './create-tag.command';

/**
 * `POST /v1/tags` (201): 400 `validation_error` (`name` `required` / `too_long` / `reserved_prefix`,
 * `color` `invalid_format`); 409 `duplicate_resource` for a name already used in the account
 * (case-sensitive).
 */
@CommandHandler(CreateTagCommand)
export class CreateTagHandler implements ICommandHandler<CreateTagCommand> {
  constructor(
    private readonly tags: TagRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, actor }: CreateTagCommand): Promise<TagView> {
    const { tag, violations } = normalizeTagInput(input);
    if (violations.length > 0) throw new ValidationFailedError(violations);
    const now = this.clock.now();
    const state: TagState = { id: newId(), ...tag, systemKey: null, createdAt: now, updatedAt: now };
    await this.unitOfWork.run(async () => {
      await this.tags.insertTag(accountId, state);
      await this.journal.record(accountId, [{ contactId: null, type: 'tag_created', actor, data: { tag_id: state.id, name: state.name } }], []);
    });
    return toTagView(state);
  }
}
