import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

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
