import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/**
 * Published command of the contacts merge (issue 15, item 6; `POST /v1/contacts/{id}/merge`): the
 * quotes linked to `fromContactId` are linked to `toContactId` (nothing else of a quote changes: number,
 * status, prospect details and amounts stay). Runs in the caller's transaction (the merge's). With
 * `dryRun` nothing is written. Returns the ids of the quotes moved (or that would move), oldest first.
 * Idempotent: a second run finds nothing left to move.
 */
export class ReassignContactQuotesCommand extends Command<string[]> {
  constructor(
    readonly accountId: AccountId,
    readonly fromContactId: string,
    readonly toContactId: string,
    readonly dryRun: boolean,
  ) {
    super();
  }
}
