import { Injectable } from '@nestjs/common';
import type { AccountId } from '@leadflow/shared-kernel';
import { journalCtes, TransactionHost } from '@leadflow/shared-platform';
import { LeadCaptureLog, LeadCaptureRecord, LeadCaptureWrites } from '@leadflow/contacts-core';
import { ContactSql, SqlParameters } from './contact.mapper';
import { identityViolation } from './typeorm-contacts.repository';

interface CaptureRow {
  id: string;
  contact_id: string;
  activity_id: string;
  contact_was_new: boolean;
  captured_at: Date;
}

/**
 * {@link LeadCaptureLog} on `contacts.lead_captures` (index `(account_id, contact_id, captured_at DESC)`)
 * in parameterised SQL: a recorded capture is one statement (capture row, new contact and identities,
 * tags attached, activity entry and outbox events).
 */
@Injectable()
export class TypeOrmLeadCaptureLog extends LeadCaptureLog {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async lastCapture(accountId: AccountId, contactId: string): Promise<LeadCaptureRecord | null> {
    const rows: CaptureRow[] = await this.transactions.manager.query(
      `SELECT id, contact_id, activity_id, contact_was_new, captured_at FROM contacts.lead_captures
        WHERE account_id = $1 AND contact_id = $2 ORDER BY captured_at DESC LIMIT 1`,
      [accountId, contactId],
    );
    return rows[0] ? toCapture(rows[0]) : null;
  }

  async record(accountId: AccountId, capture: LeadCaptureRecord, writes: LeadCaptureWrites = {}): Promise<void> {
    const params = new SqlParameters();
    const ctes: string[] = [];
    if (writes.newContact) ctes.push(ContactSql.insertCtes(writes.newContact, params));
    if (writes.tagIds && writes.tagIds.length > 0) {
      ctes.push(`new_tags AS (
        INSERT INTO contacts.contact_tags (account_id, contact_id, tag_id, created_at)
        SELECT ${params.add(accountId, '::uuid')}, ${params.add(capture.contactId, '::uuid')}, t.tag_id, ${params.add(capture.capturedAt, '::timestamptz')}
          FROM unnest(${params.add([...new Set(writes.tagIds)], '::uuid[]')}) AS t(tag_id)
        ON CONFLICT DO NOTHING)`);
    }
    if (writes.journal) {
      const journal = journalCtes(params.values.length + 1, accountId, writes.journal.entries, writes.journal.events, capture.capturedAt);
      ctes.push(...journal.ctes);
      params.values.push(...journal.params);
    }
    const values = [
      params.add(capture.id),
      params.add(accountId),
      params.add(capture.contactId),
      params.add(capture.activityId),
      params.add(capture.contactWasNew),
      params.add(capture.capturedAt),
    ].join(', ');
    try {
      await this.transactions.manager.query(
        `${ctes.length > 0 ? `WITH ${ctes.join(',\n')}\n` : ''}INSERT INTO contacts.lead_captures (id, account_id, contact_id, activity_id, contact_was_new, captured_at) VALUES (${values})`,
        params.values,
      );
    } catch (error) {
      throw identityViolation(error);
    }
  }
}

function toCapture(row: CaptureRow): LeadCaptureRecord {
  return { id: row.id, contactId: row.contact_id, activityId: row.activity_id, contactWasNew: row.contact_was_new, capturedAt: new Date(row.captured_at) };
}
