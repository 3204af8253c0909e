import { Injectable } from '@nestjs/common';
import { MessagingSandboxData } from '@leadflow/messaging-core';
import { AccountId } from '@leadflow/shared-kernel';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

/** Children first. Test mode (issue 15, item 4): only the `messaging` schema is touched. */
const MESSAGING_DATA_TABLES = [
  'messaging.outgoing_email_status_changes',
  'messaging.outgoing_emails',
  'messaging.email_threads',
  'messaging.conversation_messages',
  'messaging.conversations',
] as const;

/** {@link MessagingSandboxData} on PostgreSQL: deletes the account's rows in the caller's transaction. */
@Injectable()
export class PostgresMessagingSandboxData extends MessagingSandboxData {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  deleteAccountData(accountId: AccountId): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, MESSAGING_DATA_TABLES);
  }
}
