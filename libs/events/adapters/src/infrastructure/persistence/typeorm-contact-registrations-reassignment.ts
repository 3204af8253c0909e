import { Injectable } from '@nestjs/common';
import { AccountId, isUuid } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import type { ContactRegistrationsReassignment } from '@leadflow/events-contracts';
import { ContactRegistrationsReassignmentPort } from '@leadflow/events-core';

/**
 * `events.registrations` of a contact moved to another one (the contacts merge), one registration per
 * (edition, contact) kept: a registration whose edition the target is registered in stays. Every
 * statement filters on `account_id`.
 */
@Injectable()
export class TypeOrmContactRegistrationsReassignment extends ContactRegistrationsReassignmentPort {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async plan(accountId: AccountId, fromContactId: string, toContactId: string): Promise<ContactRegistrationsReassignment> {
    if (!isUuid(fromContactId) || !isUuid(toContactId)) return { moved: [], skipped: [] };
    const rows: { id: string; taken: boolean }[] = await this.transactions.manager.query(
      `SELECT r.id, EXISTS (SELECT 1 FROM events.registrations t
                             WHERE t.account_id = r.account_id AND t.edition_id = r.edition_id AND t.contact_id = $3) AS taken
         FROM events.registrations r
        WHERE r.account_id = $1 AND r.contact_id = $2
        ORDER BY r.created_at, r.id`,
      [accountId, fromContactId, toContactId],
    );
    return { moved: rows.filter((row) => !row.taken).map((row) => row.id), skipped: rows.filter((row) => row.taken).map((row) => row.id) };
  }

  async reassign(accountId: AccountId, fromContactId: string, toContactId: string, at: Date): Promise<ContactRegistrationsReassignment> {
    if (!isUuid(fromContactId) || !isUuid(toContactId)) return { moved: [], skipped: [] };
    const rows: { id: string; moved: boolean }[] = await this.transactions.manager.query(
      `WITH moved AS (
         UPDATE events.registrations r SET contact_id = $3, updated_at = $4
          WHERE r.account_id = $1 AND r.contact_id = $2
            AND NOT EXISTS (SELECT 1 FROM events.registrations t
                             WHERE t.account_id = r.account_id AND t.edition_id = r.edition_id AND t.contact_id = $3)
          RETURNING r.id
       )
       SELECT r.id, r.id IN (SELECT id FROM moved) AS moved
         FROM events.registrations r
        WHERE r.account_id = $1 AND (r.contact_id = $2 OR r.id IN (SELECT id FROM moved))
        ORDER BY r.created_at, r.id`,
      [accountId, fromContactId, toContactId, at],
    );
    return { moved: rows.filter((row) => row.moved).map((row) => row.id), skipped: rows.filter((row) => !row.moved).map((row) => row.id) };
  }
}
