import { Injectable } from '@nestjs/common';
import { QueryBus, QueryHandlerNotFoundException } from '@nestjs/cqrs';
import { LRUCache } from 'lru-cache';
import { GetAccountModeQuery } from '@leadflow/accounts-contracts';
import { asAccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ContactSystemLookup } from '@leadflow/webhooks-core';

/**
 * {@link ContactSystemLookup}: resolves `data.system` at delivery time: `{ id, name }` of the System the contact belongs to now.
 *
 * A read-only cross-context read (ARCHITECTURE › Data allows it where the spec demands a real-time
 * figure; here "resolved at delivery"): one indexed query joining `contacts.contacts` (primary key) and
 * `accounts.systems` (primary key), both filtered on the account. It runs in the worker, which hosts no
 * accounts query handlers, so a query-bus round trip (`GetContactSystem…` + `ListSystemsQuery`) is not
 * available there. Never writes either schema.
 */
@Injectable()
export class ContactSystemReader extends ContactSystemLookup {
  private readonly livemodes = new LRUCache<string, boolean>({ max: 10_000 });

  constructor(
    private readonly transactions: TransactionHost,
    private readonly queries: QueryBus,
  ) {
    super();
  }

  /** False for a sandbox account, through accounts' published `GetAccountModeQuery`; cached (a mode never changes). */
  override async livemodeOf(accountId: string): Promise<boolean> {
    const cached = this.livemodes.get(accountId);
    if (cached !== undefined) return cached;
    let livemode = true;
    try {
      livemode = (await this.queries.execute(new GetAccountModeQuery(asAccountId(accountId))))?.mode !== 'test';
    } catch (error) {
      if (!(error instanceof QueryHandlerNotFoundException)) throw error; // accounts not booted beside (adapter-only tests): live
    }
    this.livemodes.set(accountId, livemode);
    return livemode;
  }

  async systemOf(accountId: string, contactId: string): Promise<{ id: string; name: string } | null> {
    const rows: { id: string; name: string }[] = await this.transactions.manager.query(
      `SELECT s.id, s.name
         FROM contacts.contacts c
         JOIN accounts.systems s ON s.account_id = c.account_id AND s.id = c.system_id
        WHERE c.account_id = $1 AND c.id = $2`,
      [accountId, contactId],
    );
    return rows[0] ?? null;
  }
}
