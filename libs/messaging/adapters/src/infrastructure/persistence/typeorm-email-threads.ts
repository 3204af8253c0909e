import { Injectable } from '@nestjs/common';
import { AccountId, newId, Page } from '@leadflow/shared-kernel';
import { applyKeyset, toPage, TransactionHost } from '@leadflow/shared-platform';
import { EmailThreadRepository, EmailThreadsReadModel, TestSendLedger, TestSendUsage, ThreadMessage } from '@leadflow/messaging-core';
import type { EmailThreadsPageRequest, EmailThreadView } from '@leadflow/messaging-contracts';
import { EmailThreadRecord } from './email-thread.record';

/**
 * {@link EmailThreadRepository}: one `INSERT … ON CONFLICT (account_id, address) DO UPDATE`, so two
 * concurrent first emails to an address end in one thread with both counted.
 */
@Injectable()
export class TypeOrmEmailThreadRepository extends EmailThreadRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async touch(accountId: AccountId, message: ThreadMessage): Promise<string> {
    const rows: { id: string }[] = await this.transactions.manager.query(
      `INSERT INTO messaging.email_threads AS thread
              (id, account_id, address, subject, contact_id, participants, message_count, last_message_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, ARRAY[$3, $6]::text[], 1, $7, $7, $7)
       ON CONFLICT (account_id, address) DO UPDATE
          SET subject = EXCLUDED.subject,
              contact_id = COALESCE(thread.contact_id, EXCLUDED.contact_id),
              participants = CASE WHEN $6 = ANY(thread.participants) THEN thread.participants ELSE thread.participants || $6::text END,
              message_count = thread.message_count + 1,
              last_message_at = GREATEST(thread.last_message_at, EXCLUDED.last_message_at),
              updated_at = EXCLUDED.updated_at
       RETURNING id`,
      [newId(), accountId, message.address, message.subject, message.contactId, message.sender, message.at],
    );
    return rows[0].id;
  }
}

/** {@link EmailThreadsReadModel} on the `(account_id, last_message_at DESC, id DESC)` index. */
@Injectable()
export class TypeOrmEmailThreadsReadModel extends EmailThreadsReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async list(accountId: AccountId, page: EmailThreadsPageRequest): Promise<Page<EmailThreadView>> {
    const builder = this.transactions.manager.createQueryBuilder(EmailThreadRecord, 'thread').where('thread.account_id = :accountId', { accountId });
    const total = await builder.clone().getCount();
    const rows = await applyKeyset(builder, 'thread', page, { createdAt: 'last_message_at', id: 'id' }).getMany();
    // The cursor carries the position on (last_message_at, id).
    return toPage(
      rows.map((row) => ({ ...row, position: row.createdAt, createdAt: row.lastMessageAt })),
      page,
      total,
      (row) => ({
        id: row.id,
        subject: row.subject,
        contact_id: row.contactId,
        participants: row.participants,
        message_count: row.messageCount,
        last_message_at: row.lastMessageAt.toISOString(),
        created_at: row.position.toISOString(),
      }),
    );
  }
}

/**
 * {@link TestSendLedger} on `messaging.outgoing_emails` (`is_test`, partial index on
 * `(account_id, created_at)`): a transaction-scoped advisory lock per account serialises test sends
 * until the caller's transaction commits or rolls back, then the window is counted.
 */
@Injectable()
export class TypeOrmTestSendLedger extends TestSendLedger {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async lockAndCount(accountId: AccountId, since: Date): Promise<TestSendUsage> {
    if (!this.transactions.inTransaction) throw new Error('TestSendLedger.lockAndCount needs a transaction');
    const manager = this.transactions.manager;
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('messaging.test-sends:' || $1::text, 0))`, [accountId]);
    const [row]: { used: number; oldest: Date | null }[] = await manager.query(
      `SELECT count(*)::int AS used, min(created_at) AS oldest
         FROM messaging.outgoing_emails
        WHERE account_id = $1 AND is_test AND created_at > $2`,
      [accountId, since],
    );
    return { used: row.used, oldest: row.oldest };
  }
}
