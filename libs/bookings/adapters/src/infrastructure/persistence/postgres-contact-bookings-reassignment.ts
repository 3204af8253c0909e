import { Injectable } from '@nestjs/common';
import { AccountId, isUuid } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ContactBookingsReassignment } from '@leadflow/bookings-core';

/** `bookings.bookings` rows of a contact moved to another one (the contacts merge). Every statement filters on `account_id`. */
@Injectable()
export class PostgresContactBookingsReassignment extends ContactBookingsReassignment {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async idsOf(accountId: AccountId, contactId: string): Promise<string[]> {
    if (!isUuid(contactId)) return [];
    const rows: { id: string }[] = await this.transactions.manager.query(
      `SELECT id FROM bookings.bookings WHERE account_id = $1 AND contact_id = $2 AND archived_at IS NULL ORDER BY start_at, id`,
      [accountId, contactId],
    );
    return rows.map((row) => row.id);
  }

  async reassign(accountId: AccountId, fromContactId: string, toContactId: string, at: Date): Promise<string[]> {
    if (!isUuid(fromContactId) || !isUuid(toContactId)) return [];
    const rows: { id: string }[] = await this.transactions.manager.query(
      `WITH moved AS (
         UPDATE bookings.bookings SET contact_id = $3, updated_at = $4
          WHERE account_id = $1 AND contact_id = $2 AND archived_at IS NULL
          RETURNING id, start_at
       )
       SELECT id FROM moved ORDER BY start_at, id`,
      [accountId, fromContactId, toContactId, at],
    );
    return rows.map((row) => row.id);
  }
}
