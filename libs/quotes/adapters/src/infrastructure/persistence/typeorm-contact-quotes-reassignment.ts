import { Injectable } from '@nestjs/common';
import { AccountId, isUuid } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ContactQuotesReassignment } from '@leadflow/quotes-core';

/** `quotes.quotes` rows of a contact moved to another one (the contacts merge). Every statement filters on `account_id`. */
@Injectable()
export class TypeOrmContactQuotesReassignment extends ContactQuotesReassignment {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async idsOf(accountId: AccountId, contactId: string): Promise<string[]> {
    if (!isUuid(contactId)) return [];
    const rows: { id: string }[] = await this.transactions.manager.query(
      `SELECT id FROM quotes.quotes WHERE account_id = $1 AND contact_id = $2  ORDER BY created_at, id`,
      [accountId, contactId],
    );
    return rows.map((row) => row.id);
  }

  async reassign(accountId: AccountId, fromContactId: string, toContactId: string, at: Date): Promise<string[]> {
    if (!isUuid(fromContactId) || !isUuid(toContactId)) return [];
    const rows: { id: string }[] = await this.transactions.manager.query(
      `WITH moved AS (
         UPDATE quotes.quotes SET contact_id = $3, updated_at = $4
          WHERE account_id = $1 AND contact_id = $2 
          RETURNING id, created_at
       )
       SELECT id FROM moved ORDER BY created_at, id`,
      [accountId, fromContactId, toContactId, at],
    );
    return rows.map((row) => row.id);
  }
}
