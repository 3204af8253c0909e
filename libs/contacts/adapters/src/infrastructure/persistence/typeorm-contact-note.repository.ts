import { Injectable } from '@nestjs/common';
import type { AccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ContactNoteRepository, NoteState } from '@leadflow/contacts-core';
import { ContactNoteRecord } from './contacts.records';

/** TypeORM implementation of {@link ContactNoteRepository} (`contacts.contact_notes`). */
@Injectable()
export class TypeOrmContactNoteRepository extends ContactNoteRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  private get manager() {
    return this.transactions.manager;
  }

  async insertNote(accountId: AccountId, note: NoteState): Promise<void> {
    await this.manager.insert(ContactNoteRecord, { ...note, accountId });
  }
}
