import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { QueryBus, QueryHandlerNotFoundException } from '@nestjs/cqrs';
import { GetAccountModeQuery } from '@leadflow/accounts-contracts';
import { AccountId, isUuid, newId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { SmsFollowUpPort, SmsHandOff, SmsHandOffResult } from '@leadflow/contacts-core';

/** The one row of {@link HAND_OFF_SQL}: the contact as read (`found` false: no such contact) and whether the row was inserted. */
interface HandOffRow {
  found: boolean;
  merged_into_id: string | null;
  stopped_at: Date | null;
  recorded: boolean;
}

/**
 * The contact's follow-up state and, when `aiFollowUpOpen` holds for it, the hand-off's insert
 * (`ON CONFLICT (account_id, event_id) DO NOTHING`: one per event). Parameters: id, account_id,
 * event_id, contact_id, capture_id, phone, first_name, status, captured_at, created_at.
 */
const HAND_OFF_SQL = `WITH contact AS (
    SELECT merged_into_id, ai_follow_up_stopped_at FROM contacts.contacts WHERE account_id = $2::uuid AND id = $4::uuid
  ), inserted AS (
    INSERT INTO contacts.sms_handoffs (id, account_id, event_id, contact_id, capture_id, phone, first_name, status, captured_at, created_at)
    SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::text, $7::text, $8::text, $9::timestamptz, $10::timestamptz FROM contact WHERE merged_into_id IS NULL AND ai_follow_up_stopped_at IS NULL
    ON CONFLICT (account_id, event_id) DO NOTHING
    RETURNING id
  )
  SELECT EXISTS (SELECT 1 FROM contact) AS found,
         (SELECT merged_into_id FROM contact) AS merged_into_id,
         (SELECT ai_follow_up_stopped_at FROM contact) AS stopped_at,
         EXISTS (SELECT 1 FROM inserted) AS recorded`;

/** Status of a hand-off not made because the account is a sandbox (test mode, issue 15 item 4). */
export const SMS_HANDOFF_SKIPPED_TEST_MODE = 'skipped_test_mode';

/**
 * Default {@link SmsFollowUpPort}: records the hand-off in `contacts.sms_handoffs` (status `pending`)
 * for the SMS bot; no SMS provider is called. `(account_id, event_id)` is unique, so a job delivered
 * twice records one hand-off. For a sandbox account (accounts' `GetAccountModeQuery` answers `test`)
 * the row is recorded with status `skipped_test_mode`, which the SMS bot never picks up. An account's
 * mode never changes (a sandbox is its own account, `mode = 'test'` exactly when `sandbox_of` is set),
 * so it is kept in memory once known (LRU of 10,000 accounts). One statement per hand-off (issue 11 item 3):
 * it reads the contact and inserts the row only when `aiFollowUpOpen` holds for what it read (contact
 * present, `merged_into_id` and `ai_follow_up_stopped_at` null), so the check and the write see one snapshot.
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

  async handOff(accountId: AccountId, handOff: SmsHandOff): Promise<SmsHandOffResult> {
    if (!isUuid(handOff.contactId)) return { contact: null, recorded: false };
    const status = (await this.modeOf(accountId)) === 'test' ? SMS_HANDOFF_SKIPPED_TEST_MODE : 'pending';
    const rows: HandOffRow[] = await this.transactions.manager.query(HAND_OFF_SQL, [
      newId(),
      accountId,
      handOff.eventId,
      handOff.contactId,
      handOff.captureId,
      handOff.phone,
      handOff.firstName,
      status,
      handOff.capturedAt,
      handOff.handedOffAt,
    ]);
    const row = rows[0];
    if (!row || !row.found) return { contact: null, recorded: false };
    return { contact: { mergedIntoId: row.merged_into_id, aiFollowUpStoppedAt: row.stopped_at }, recorded: row.recorded };
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
