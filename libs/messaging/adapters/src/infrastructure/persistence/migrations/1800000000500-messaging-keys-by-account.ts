import { MigrationInterface, QueryRunner } from 'typeorm';
import { AccountKeysPlan, leadKeysWithAccount } from '@leadflow/shared-platform';

/**
 * Schema `messaging` distributable by account (docs/adr/0008): primary keys `(account_id, …)` and foreign keys `(account_id, x_id)`.
 * No row is rewritten: the new indexes are built concurrently and swapped in one short transaction
 * (`leadKeysWithAccount`); the foreign keys are then validated without blocking writes.
 */
export class MessagingKeysByAccount1800000000500 implements MigrationInterface {
  name = 'MessagingKeysByAccount1800000000500';
  /** `CREATE INDEX CONCURRENTLY` cannot run in a transaction; `leadKeysWithAccount` opens its own short one. */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await leadKeysWithAccount(queryRunner, PLAN);
  }

  async down(): Promise<void> {
    throw new Error('MessagingKeysByAccount1800000000500 is not reversible: restore the previous version from a backup');
  }
}

const PLAN: AccountKeysPlan = {
  primaryKeys: [
    { table: 'messaging.senders', columns: ['account_id', 'id'] },
    { table: 'messaging.outgoing_emails', columns: ['account_id', 'id'] },
    { table: 'messaging.outgoing_email_status_changes', columns: ['account_id', 'id'] },
    { table: 'messaging.email_threads', columns: ['account_id', 'id'] },
    { table: 'messaging.conversations', columns: ['account_id', 'id'] },
    { table: 'messaging.conversation_messages', columns: ['account_id', 'id'] },
  ],
  dropUniques: [
    { table: 'messaging.senders', name: 'senders_account_id_key' },
    { table: 'messaging.outgoing_emails', name: 'outgoing_emails_account_id_key' },
    { table: 'messaging.email_threads', name: 'email_threads_account_id_key' },
    { table: 'messaging.conversations', name: 'conversations_account_id_key' },
  ],
  foreignKeys: [
    { table: 'messaging.outgoing_email_status_changes', name: 'outgoing_email_status_changes_email_fkey', columns: ['account_id', 'email_id'], references: 'messaging.outgoing_emails', referencedColumns: ['account_id', 'id'], onDelete: 'CASCADE' },
    { table: 'messaging.conversation_messages', name: 'conversation_messages_conversation_fkey', columns: ['account_id', 'conversation_id'], references: 'messaging.conversations', referencedColumns: ['account_id', 'id'], onDelete: 'CASCADE' },
  ],
};
