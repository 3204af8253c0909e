import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { ContactView, TagView } from '@leadflow/contacts-contracts';
import type { ContactPatch, NewContactInput } from '../../domain/contact.aggregate';
import type { TagInput } from '../../domain/tag-rules';

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

/** `POST /v1/contacts/{id}/tags`: returns the contact's tags. `tagIds` is checked by the handler (UUIDs of the account). */
export class AttachTagsCommand extends Command<TagView[]> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly tagIds: readonly unknown[],
    readonly actor: Actor,
  ) {
    super();
  }
}

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

export interface NoteView {
  id: string;
  contact_id: string;
  body: string;
  created_at: string;
}

/** `POST /v1/contacts/{id}/notes`. */
export class AddNoteCommand extends Command<NoteView> {
  constructor(
    readonly accountId: AccountId,
    readonly contactId: string,
    readonly body: string | null | undefined,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** `POST /v1/tags`. */
export class CreateTagCommand extends Command<TagView> {
  constructor(
    readonly accountId: AccountId,
    readonly input: TagInput,
    readonly actor: Actor,
  ) {
    super();
  }
}
