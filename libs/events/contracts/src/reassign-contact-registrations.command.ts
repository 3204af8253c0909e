import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/** What {@link ReassignContactRegistrationsCommand} moved (or would move). */
export interface ContactRegistrationsReassignment {
  /** Registrations now `toContactId`'s. */
  moved: string[];
  /** Registrations left with `fromContactId`: `toContactId` is already registered in that edition (one registration per edition and contact). */
  skipped: string[];
}

/**
 * Published command of the contacts merge (issue 15, item 6; `POST /v1/contacts/{id}/merge`): the event
 * registrations of `fromContactId` become `toContactId`'s, except in an edition where `toContactId` is
 * registered already (its own registration wins; the other one stays with `fromContactId`). Runs in the
 * caller's transaction (the merge's). With `dryRun` nothing is written. Ids oldest first. Idempotent.
 */
export class ReassignContactRegistrationsCommand extends Command<ContactRegistrationsReassignment> {
  constructor(
    readonly accountId: AccountId,
    readonly fromContactId: string,
    readonly toContactId: string,
    readonly dryRun: boolean,
  ) {
    super();
  }
}
