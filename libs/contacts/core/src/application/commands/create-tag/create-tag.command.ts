import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { TagView } from '@leadflow/contacts-contracts';
import type { TagInput } from '../../../domain/tag-rules';

/** `POST /v1/tags`. */
export class CreateTagCommand extends Command<TagView> {
  constructor(
    readonly accountId: AccountId,
    readonly input: TagInput,
    readonly actor: Actor,
  ) {
    super();
  }
}
