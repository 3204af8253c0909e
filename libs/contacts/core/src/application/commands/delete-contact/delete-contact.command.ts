import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

export interface DeletedContact {
  id: string;
  deleted: true;
  /** Outside-platform cleanup: `failed` > 0 means some external calendar bookings could not be removed. */
  cleanup: { attempted: number; failed: number };
}

/** `DELETE /v1/contacts/{id}`. */
export class DeleteContactCommand extends Command<DeletedContact> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
