import { Injectable } from '@nestjs/common';
import { AccountId, newId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { SmsFollowUpPort, SmsHandOff } from '@leadflow/contacts-core';

/**
 * Default {@link SmsFollowUpPort}: records the hand-off in `contacts.sms_handoffs` (status `pending`)
 * for the SMS bot; no SMS provider is called. `(account_id, event_id)` is unique, so a job delivered
 * twice records one hand-off.
 */
@Injectable()
export class PostgresSmsFollowUpAdapter extends SmsFollowUpPort {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async handOff(accountId: AccountId, handOff: SmsHandOff): Promise<boolean> {
    const rows: unknown[] = await this.transactions.manager.query(
      `INSERT INTO contacts.sms_handoffs (id, account_id, event_id, contact_id, capture_id, phone, first_name, status, captured_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9)
       ON CONFLICT (account_id, event_id) DO NOTHING
       RETURNING id`,
      [newId(), accountId, handOff.eventId, handOff.contactId, handOff.captureId, handOff.phone, handOff.firstName, handOff.capturedAt, handOff.handedOffAt],
    );
    return rows.length > 0;
  }
}
