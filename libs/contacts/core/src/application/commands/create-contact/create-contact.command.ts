import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { ContactView } from '@leadflow/contacts-contracts';
import type { NewContactInput } from '../../../domain/contact.aggregate';

/** `POST /v1/contacts` (source `api`). See CreateContactHandler for the errors. */
export class CreateContactCommand extends Command<ContactView> {
  constructor(
    readonly accountId: AccountId,
    readonly input: NewContactInput & { systemId?: string | null },
    readonly actor: Actor,
  ) {
    super();
  }
}
