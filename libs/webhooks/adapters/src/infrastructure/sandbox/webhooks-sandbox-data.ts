import { Injectable } from '@nestjs/common';
import { WebhooksSandboxData } from '@leadflow/webhooks-core';
import { AccountId } from '@leadflow/shared-kernel';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

/** Children first. Test mode (issue 15, item 4): only the `webhooks` schema is touched. */
const WEBHOOKS_DATA_TABLES = [
  'webhooks.delivery_attempts',
  'webhooks.deliveries',
  'webhooks.event_samples',
] as const;

/** {@link WebhooksSandboxData} on PostgreSQL: deletes the account's rows in the caller's transaction. */
@Injectable()
export class PostgresWebhooksSandboxData extends WebhooksSandboxData {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  deleteAccountData(accountId: AccountId): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, WEBHOOKS_DATA_TABLES);
  }
}
