import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { ContactView } from '@leadflow/contacts-contracts';
import type { ContactPatch } from '../../../domain/contact.aggregate';

/** `PATCH /v1/contacts/{id}`. */
export class UpdateContactCommand extends Command<ContactView> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly patch: ContactPatch,
    readonly actor: Actor,
  ) {
    super();
  }
}
