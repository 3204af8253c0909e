import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

/**
 * Attaches the tag named `tagName` (exact, case-sensitive; created with the default color when the
 * account has none) to a contact, in the caller's unit of work, with a `tag_added` activity entry
 * when newly attached. Used by the automations' `add_tag` step. Throws 404 `not_found` (contact
 * missing, merged or another account's), 400 `validation_error` `reserved_prefix` for a `Campagne :` name, 409 `tag_managed_by_service` for a
 * campaign tag. Returns the tag id and whether it was newly attached.
 */
export class TagContactByNameCommand extends Command<{ tagId: string; added: boolean }> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly tagName: string,
    readonly actor: Actor,
  ) {
    super();
  }
}

/**
 * Detaches the tag named `tagName` (exact) from a contact, in the caller's unit of work, with a
 * `tag_removed` activity entry; a tag that does not exist or is not on the contact is a no-op
 * (`removed` false). Used by the automations' `remove_tag` step. Throws 404 `not_found` for the
 * contact and 409 `tag_managed_by_service` for a campaign tag.
 */
export class UntagContactByNameCommand extends Command<{ removed: boolean }> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly tagName: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
