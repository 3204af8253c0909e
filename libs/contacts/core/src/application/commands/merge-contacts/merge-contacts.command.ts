import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { ContactView } from '@leadflow/contacts-contracts';

/** Ids of what a merge moves from the merged contact to the survivor. */
export interface MovedIds {
  count: number;
  ids: string[];
}

/**
 * The answer of `POST /v1/contacts/{id}/merge` (`data`), the same for a dry run (what would happen) and
 * a real merge (what happened).
 */
export interface ContactMergeReport {
  dry_run: boolean;
  /** The contact absorbed (the path id). */
  merged_contact_id: string;
  /** What the survivor becomes (or became): the contact read shape. */
  survivor: ContactView;
  /** Public field names: `kept` = the survivor's value kept over another value of the merged contact; `filled` = an empty field of the survivor filled. */
  fields: { kept: string[]; filled: string[] };
  /** Every email and phone of the merged contact, now the survivor's (`primary` when it fills the survivor's empty primary detail). */
  identities: { count: number; items: { kind: 'email' | 'phone'; value: string; primary: boolean }[] };
  /** Tags of the merged contact the survivor did not have. */
  tags: MovedIds;
  /** The merged contact's deal (its pipeline stage; a deal's id is its contact's id) when it becomes the survivor's. */
  deals: MovedIds;
  bookings: MovedIds;
  quotes: MovedIds;
  /** Event registrations moved; `skipped_ids`: left with the merged contact, the survivor being registered in that edition already. */
  registrations: MovedIds & { skipped_ids: string[] };
}

/**
 * `POST /v1/contacts/{id}/merge` (issue 15, item 6): `contactId` is absorbed by `intoContactId`;
 * `dryRun` answers the same report and writes nothing. See MergeContactsHandler.
 */
export class MergeContactsCommand extends Command<ContactMergeReport> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly intoContactId: string,
    readonly dryRun: boolean,
    readonly actor: Actor,
  ) {
    super();
  }
}
