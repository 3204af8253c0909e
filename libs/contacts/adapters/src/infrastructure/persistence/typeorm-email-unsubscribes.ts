import { Injectable } from '@nestjs/common';
import { AccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { EmailUnsubscribes } from '@leadflow/contacts-core';

/** {@link EmailUnsubscribes} on `contacts.email_unsubscribes` (primary key `(account_id, email)`). */
@Injectable()
export class TypeOrmEmailUnsubscribes extends EmailUnsubscribes {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async isUnsubscribed(accountId: AccountId, email: string): Promise<boolean> {
    const rows: unknown[] = await this.transactions.manager.query(
      `SELECT 1 FROM contacts.email_unsubscribes WHERE account_id = $1 AND email = $2`,
      [accountId, email],
    );
    return rows.length > 0;
  }

  async set(accountId: AccountId, email: string, unsubscribed: boolean, at: Date): Promise<void> {
    if (unsubscribed) {
      await this.transactions.manager.query(
        `INSERT INTO contacts.email_unsubscribes (account_id, email, unsubscribed_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [accountId, email, at],
      );
    } else {
      await this.transactions.manager.query(`DELETE FROM contacts.email_unsubscribes WHERE account_id = $1 AND email = $2`, [accountId, email]);
    }
  }
}
