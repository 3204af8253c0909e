import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { QueryBus, QueryHandlerNotFoundException } from '@nestjs/cqrs';
import { GetAccountModeQuery } from '@leadflow/accounts-contracts';
import { AccountId, newId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { SmsFollowUpPort, SmsHandOff } from '@leadflow/contacts-core';

/** Status of a hand-off not made because the account is a sandbox (test mode, issue 15 item 4). */
export const SMS_HANDOFF_SKIPPED_TEST_MODE = 'skipped_test_mode';

/**
 * Default {@link SmsFollowUpPort}: records the hand-off in `contacts.sms_handoffs` (status `pending`)
 * for the SMS bot; no SMS provider is called. `(account_id, event_id)` is unique, so a job delivered
 * twice records one hand-off. For a sandbox account (accounts' `GetAccountModeQuery` answers `test`)
 * the row is recorded with status `skipped_test_mode`, which the SMS bot never picks up. An account's
 * mode never changes (a sandbox is its own account, `mode = 'test'` exactly when `sandbox_of` is set),
 * so it is kept in memory once known (LRU of 10,000 accounts): one statement per hand-off, the insert.
 */
@Injectable()
export class PostgresSmsFollowUpAdapter extends SmsFollowUpPort {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly queries: QueryBus,
  ) {
    super();
  }

  private readonly modes = new LRUCache<string, 'live' | 'test'>({ max: 10_000 });

  async handOff(accountId: AccountId, handOff: SmsHandOff): Promise<boolean> {
    const status = (await this.modeOf(accountId)) === 'test' ? SMS_HANDOFF_SKIPPED_TEST_MODE : 'pending';
    const rows: unknown[] = await this.transactions.manager.query(
      `INSERT INTO contacts.sms_handoffs (id, account_id, event_id, contact_id, capture_id, phone, first_name, status, captured_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (account_id, event_id) DO NOTHING
       RETURNING id`,
      [newId(), accountId, handOff.eventId, handOff.contactId, handOff.captureId, handOff.phone, handOff.firstName, status, handOff.capturedAt, handOff.handedOffAt],
    );
    return rows.length > 0;
  }

  /** The account's mode; `live` when the accounts context is not booted beside this adapter (adapter-only integration tests). */
  private async modeOf(accountId: AccountId): Promise<'live' | 'test'> {
    const known = this.modes.get(accountId);
    if (known !== undefined) return known;
    try {
      const found = await this.queries.execute(new GetAccountModeQuery(accountId));
      if (found) this.modes.set(accountId, found.mode);
      return found?.mode ?? 'live';
    } catch (error) {
      if (error instanceof QueryHandlerNotFoundException) return 'live';
      throw error;
    }
  }
}
