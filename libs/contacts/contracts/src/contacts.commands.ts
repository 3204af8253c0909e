import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { ContactLifecycleView, CustomFieldDefinitionSpec, TagView } from './contact.views';

/**
 * Creates the account's custom field definitions (blueprint member `custom_fields`), inside the
 * caller's unit of work. Returns `{ <name>: <definition id> }`. 400 `validation_error` with
 * `details[].field` `custom_fields[<i>].name|type|options` (reasons `required`, `too_long`,
 * `duplicate` — also against the account's existing names —, `invalid_value`, `too_few`, `too_many`).
 */
export class DefineCustomFieldsCommand extends Command<Record<string, string>> {
  constructor(
    readonly accountId: AccountId,
    readonly definitions: readonly CustomFieldDefinitionSpec[],
  ) {
    super();
  }
}

/**
 * Returns the campaign tag of `slug` (`system_key` `campaign:<slug>`, name `Campagne : <name>`),
 * creating it when missing; an existing tag keeps its name. Used by lead capture. Joins the caller's
 * unit of work. 400 `validation_error` for an empty slug or name.
 */
export class EnsureCampaignTagCommand extends Command<TagView> {
  constructor(
    readonly accountId: AccountId,
    readonly slug: string,
    readonly name: string,
  ) {
    super();
  }
}

/** Archives a contact (idempotent). 404 `not_found` for a missing, merged or other account's contact. */
export class ArchiveContactCommand extends Command<ContactLifecycleView> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** Restores an archived contact (idempotent). 404 `not_found` like {@link ArchiveContactCommand}. */
export class UnarchiveContactCommand extends Command<ContactLifecycleView> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}

/**
 * Absorbs `contactId` into `intoContactId`: the absorbed contact leaves lists and counts and its id
 * answers 404; its email and phone keep counting as the survivor's secondary identities. Returns the
 * absorbed contact (`merged_into_contact_id` set). 404 `not_found` (`details.field` `into_contact_id` for the survivor) when either is
 * missing or merged; 400 `validation_error` when they are the same contact.
 */
export class MergeContactCommand extends Command<ContactLifecycleView> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly intoContactId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** Undoes a merge: the absorbed id works again. A contact that is not merged is returned as is. 404 `not_found`. */
export class UnmergeContactCommand extends Command<ContactLifecycleView> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** Marks the lead disqualified (idempotent; read by the pipeline rules). 404 `not_found`. */
export class DisqualifyContactCommand extends Command<ContactLifecycleView> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
