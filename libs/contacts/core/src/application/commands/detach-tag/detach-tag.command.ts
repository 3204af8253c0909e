import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

/** `DELETE /v1/contacts/{id}/tags/{tag_id}`. */
export class DetachTagCommand extends Command<void> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly tagId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
