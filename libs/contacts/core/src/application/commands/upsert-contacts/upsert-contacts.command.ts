import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor, DomainErrorDetails } from '@leadflow/shared-kernel';
import type { ContactView } from '@leadflow/contacts-contracts';

/** What happened to one input of `POST /v1/contacts/batch`. */
export type ContactBatchStatus = 'created' | 'updated' | 'unchanged';

/** One result of `POST /v1/contacts/batch`, at the input's position (`index`, from 0). */
export type ContactBatchResult =
  | { index: number; status: ContactBatchStatus; contact: ContactView }
  | { index: number; status: 'error'; error: { code: string; message: string; details: DomainErrorDetails } };

/**
 * `POST /v1/contacts/batch`: 1 to 100 inputs (checked by the route), each an object with the members of
 * `POST /v1/contacts`, unchecked here (each input is checked on its own: a bad one is an `error` result,
 * never a refusal of the request). See UpsertContactsHandler.
 */
export class UpsertContactsCommand extends Command<ContactBatchResult[]> {
  constructor(
    readonly accountId: AccountId,
    readonly inputs: readonly unknown[],
    readonly actor: Actor,
  ) {
    super();
  }
}
