import { Injectable } from '@nestjs/common';
import type { AccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { LeadCaptureLog, LeadCaptureRecord } from '@leadflow/contacts-core';
import { LeadCaptureRecordRow } from './contacts.records';

/** {@link LeadCaptureLog} on `contacts.lead_captures` (index `(account_id, contact_id, captured_at DESC)`). */
@Injectable()
export class TypeOrmLeadCaptureLog extends LeadCaptureLog {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async lastCapture(accountId: AccountId, contactId: string): Promise<LeadCaptureRecord | null> {
    const rows: { id: string; contact_id: string; activity_id: string; contact_was_new: boolean; captured_at: Date }[] = await this.transactions.manager.query(
      `SELECT id, contact_id, activity_id, contact_was_new, captured_at FROM contacts.lead_captures
        WHERE account_id = $1 AND contact_id = $2 ORDER BY captured_at DESC LIMIT 1`,
      [accountId, contactId],
    );
    const row = rows[0];
    return row
      ? { id: row.id, contactId: row.contact_id, activityId: row.activity_id, contactWasNew: row.contact_was_new, capturedAt: new Date(row.captured_at) }
      : null;
  }

  async record(accountId: AccountId, capture: LeadCaptureRecord): Promise<void> {
    await this.transactions.manager.insert(LeadCaptureRecordRow, { ...capture, accountId });
  }
}
