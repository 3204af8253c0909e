import type { AccountId, Actor } from '@leadflow/shared-kernel';

export interface NoteState {
  id: string;
  contactId: string;
  body: string;
  actor: Actor;
  createdAt: Date;
}

/** The contacts' notes (`contacts.contact_notes`); joins the caller's unit of work. */
export abstract class ContactNoteRepository {
  abstract insertNote(accountId: AccountId, note: NoteState): Promise<void>;
}
