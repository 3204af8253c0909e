import type { AccountId } from '@leadflow/shared-kernel';
import { ContactNoteRepository, NoteState } from '../application/ports/contact-note.repository.port';
import { InMemoryContactsStore } from './in-memory-contacts.store';

/** {@link ContactNoteRepository} over the store. */
export class InMemoryContactNoteRepository extends ContactNoteRepository {
  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  async insertNote(accountId: AccountId, note: NoteState): Promise<void> {
    this.store.notes.push({ ...note, accountId });
  }
}
