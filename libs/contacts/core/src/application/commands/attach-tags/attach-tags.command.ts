import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { TagView } from '@leadflow/contacts-contracts';

/** `POST /v1/contacts/{id}/tags`: returns the contact's tags. `tagIds` is checked by the handler (UUIDs of the account). */
export class AttachTagsCommand extends Command<TagView[]> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly tagIds: readonly unknown[],
    readonly actor: Actor,
  ) {
    super();
  }
}
