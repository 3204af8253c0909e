import { Injectable } from '@nestjs/common';
import { AccountId, asAccountId, newId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { DeliverySettlement, EmailStatusChange, OutgoingEmailRepository, OutgoingEmailState } from '@leadflow/messaging-core';
import type { OutgoingEmailStatus } from '@leadflow/messaging-contracts';
import { OutgoingEmailRecord, OutgoingEmailStatusChangeRecord } from './outgoing-email.record';

/** A row of `messaging.outgoing_emails` as raw SQL returns it. */
interface OutgoingEmailRow {
  id: string;
  account_id: string;
  to: string;
  from_email: string;
  from_name: string | null;
  reply_to: string | null;
  subject: string;
  html: string;
  type: OutgoingEmailState['type'];
  priority: number;
  is_test: boolean;
  contact_id: string | null;
  source: { kind: string; id: string } | null;
  thread_id: string | null;
  status: OutgoingEmailStatus;
  attempts: number;
  last_error: string | null;
  provider_message_id: string | null;
  created_at: Date;
  sent_at: Date | null;
  updated_at: Date;
}

/**
 * TypeORM implementation of {@link OutgoingEmailRepository}: every statement filters on
 * `account_id` and runs in the caller's unit of work; each state change inserts its
 * `outgoing_email_status_changes` row in the same transaction.
 */
@Injectable()
export class TypeOrmOutgoingEmailRepository extends OutgoingEmailRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async insert(email: OutgoingEmailState): Promise<void> {
    const manager = this.transactions.manager;
    await manager.insert(OutgoingEmailRecord, { ...email, threadId: email.threadId ?? null });
    await this.record(email.accountId, { emailId: email.id, from: null, to: 'queued', attempt: 0, error: null, at: email.createdAt });
  }

  async find(accountId: AccountId, emailId: string): Promise<OutgoingEmailState | null> {
    const row = await this.transactions.manager.findOneBy(OutgoingEmailRecord, { accountId, id: emailId });
    return row ? { ...row, accountId: asAccountId(row.accountId) } : null;
  }

  async claim(accountId: AccountId, emailId: string, now: Date, staleBefore: Date): Promise<OutgoingEmailState | null> {
    // The sub-select locks the row; a concurrent claim waits, then re-checks the condition on the
    // committed version (status now `sending`, fresh) and takes nothing.
    const [rows]: [(OutgoingEmailRow & { previous_status: OutgoingEmailStatus })[], number] = await this.transactions.manager.query(
      `UPDATE messaging.outgoing_emails AS email
          SET status = 'sending', attempts = email.attempts + 1, updated_at = $3
         FROM (SELECT id, status AS previous_status
                 FROM messaging.outgoing_emails
                WHERE account_id = $1 AND id = $2
                  AND (status = 'queued' OR (status = 'sending' AND updated_at < $4))
                FOR UPDATE) AS previous
        WHERE email.account_id = $1 AND email.id = previous.id
          AND (email.status = 'queued' OR (email.status = 'sending' AND email.updated_at < $4))
      RETURNING email.*, previous.previous_status`,
      [accountId, emailId, now, staleBefore],
    );
    const row = rows[0];
    if (!row) return null;
    await this.record(accountId, { emailId, from: row.previous_status, to: 'sending', attempt: row.attempts, error: null, at: now });
    return toState(row);
  }

  async settle(accountId: AccountId, emailId: string, attempt: number, settlement: DeliverySettlement): Promise<OutgoingEmailState | null> {
    const sent = settlement.status === 'sent';
    const [rows]: [OutgoingEmailRow[], number] = await this.transactions.manager.query(
      `UPDATE messaging.outgoing_emails
          SET status = $4, updated_at = $5, last_error = $6,
              sent_at = CASE WHEN $4 = 'sent' THEN $5::timestamptz ELSE sent_at END,
              provider_message_id = CASE WHEN $4 = 'sent' THEN $7 ELSE provider_message_id END
        WHERE account_id = $1 AND id = $2 AND status = 'sending' AND attempts = $3
      RETURNING *`,
      [accountId, emailId, attempt, settlement.status, settlement.at, sent ? null : settlement.error, sent ? settlement.providerMessageId : null],
    );
    const row = rows[0];
    if (!row) return null;
    await this.record(accountId, { emailId, from: 'sending', to: settlement.status, attempt, error: sent ? null : settlement.error, at: settlement.at });
    return toState(row);
  }

  async history(accountId: AccountId, emailId: string): Promise<EmailStatusChange[]> {
    const rows = await this.transactions.manager.find(OutgoingEmailStatusChangeRecord, { where: { accountId, emailId }, order: { sequence: 'ASC' } });
    return rows.map((row) => ({ emailId: row.emailId, from: row.fromStatus, to: row.toStatus, attempt: row.attempt, error: row.error, at: row.createdAt }));
  }

  private async record(accountId: AccountId, change: EmailStatusChange): Promise<void> {
    await this.transactions.manager.insert(OutgoingEmailStatusChangeRecord, {
      id: newId(),
      accountId,
      emailId: change.emailId,
      fromStatus: change.from,
      toStatus: change.to,
      attempt: change.attempt,
      error: change.error,
      createdAt: change.at,
    });
  }
}

function toState(row: OutgoingEmailRow): OutgoingEmailState {
  return {
    id: row.id,
    accountId: asAccountId(row.account_id),
    to: row.to,
    fromEmail: row.from_email,
    fromName: row.from_name,
    replyTo: row.reply_to,
    subject: row.subject,
    html: row.html,
    type: row.type,
    priority: row.priority,
    isTest: row.is_test,
    contactId: row.contact_id,
    source: row.source,
    threadId: row.thread_id,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    providerMessageId: row.provider_message_id,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    updatedAt: row.updated_at,
  };
}
