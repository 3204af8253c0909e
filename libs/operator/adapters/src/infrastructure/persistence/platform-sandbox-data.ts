import { Injectable } from '@nestjs/common';
import type { AccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';

/**
 * Test mode (issue 15, item 4): the platform's own rows of a sandbox being reset, in the caller's
 * transaction. The shared platform schema belongs to no context, so the operator API clears it here:
 * the activity log and timeline, the idempotency keys (their stored responses name deleted resources)
 * and the outbox rows not yet relayed (events about data that no longer exists: no webhook, automation
 * or email follows a reset). Relayed outbox rows, the event inbox and usage buckets stay.
 */
@Injectable()
export class PlatformSandboxData {
  constructor(private readonly transactions: TransactionHost) {}

  async reset(accountId: AccountId): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    const statements: [string, string][] = [
      ['platform.activity_log', `DELETE FROM platform.activity_log WHERE account_id = $1`],
      ['platform.idempotency_keys', `DELETE FROM platform.idempotency_keys WHERE account_id = $1`],
      ['platform.outbox', `DELETE FROM platform.outbox WHERE account_id = $1 AND relayed_at IS NULL`],
    ];
    for (const [table, statement] of statements) {
      const [{ n }] = await this.transactions.manager.query(`WITH gone AS (${statement} RETURNING 1) SELECT count(*)::int AS n FROM gone`, [accountId]);
      deleted[table] = n;
    }
    return deleted;
  }
}
