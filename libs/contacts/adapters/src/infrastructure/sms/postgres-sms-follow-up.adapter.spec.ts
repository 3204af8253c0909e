import { QueryBus, QueryHandlerNotFoundException } from '@nestjs/cqrs';
import { AccountModeView, GetAccountModeQuery } from '@leadflow/accounts-contracts';
import { AccountId, asAccountId, newId } from '@leadflow/shared-kernel';
import type { TransactionHost } from '@leadflow/shared-platform';
import type { SmsHandOff } from '@leadflow/contacts-core';
import { PostgresSmsFollowUpAdapter, SMS_HANDOFF_SKIPPED_TEST_MODE } from './postgres-sms-follow-up.adapter';

const LIVE = asAccountId('a0000000-0000-4000-8000-00000000000a');
const SANDBOX = asAccountId('a0000000-0000-4000-8000-00000000000b');
const UNKNOWN = asAccountId('a0000000-0000-4000-8000-00000000000c');

const live = (accountId: string): AccountModeView => ({ accountId, mode: 'live', sandboxOf: null, sandboxId: null });
const sandbox = (accountId: string): AccountModeView => ({ accountId, mode: 'test', sandboxOf: LIVE, sandboxId: null });

/** Position of `status` among the insert's parameters (id, account_id, event_id, contact_id, capture_id, phone, first_name, status, …). */
const STATUS = 7;

function setup(modes: Record<string, AccountModeView | null | Error>) {
  const asked: AccountId[] = [];
  const queries = {
    execute: async (query: unknown) => {
      if (!(query instanceof GetAccountModeQuery)) throw new Error(`unexpected query ${String(query)}`);
      asked.push(query.accountId);
      const answer = modes[query.accountId];
      if (answer instanceof Error) throw answer;
      return answer ?? null;
    },
  } as unknown as QueryBus;
  const inserts: { sql: string; parameters: unknown[] }[] = [];
  const transactions = {
    manager: {
      query: async (sql: string, parameters: unknown[]) => {
        inserts.push({ sql, parameters });
        return [{ found: true, merged_into_id: null, stopped_at: null, recorded: true }];
      },
    },
  } as unknown as TransactionHost;
  const adapter = new PostgresSmsFollowUpAdapter(transactions, queries);
  return { adapter, asked, inserts, statuses: () => inserts.map((insert) => insert.parameters[STATUS]) };
}

const handOff = (): SmsHandOff => {
  const at = new Date('2026-06-01T09:00:00.000Z');
  return { eventId: newId(), contactId: newId(), captureId: newId(), phone: '+15145550100', firstName: 'Élise', capturedAt: at, handedOffAt: at };
};

/** Issue 11 (hot path): the account's mode, immutable, is asked of the accounts context once and then kept in memory. */
describe('PostgresSmsFollowUpAdapter: the account mode cached after the first GetAccountModeQuery', () => {
  it('two hand-offs of the same account ask for its mode once; each records its row (status pending for a live account)', async () => {
    const { adapter, asked, inserts, statuses } = setup({ [LIVE]: live(LIVE) });
    const first = handOff();

    expect(await adapter.handOff(LIVE, first)).toEqual({ contact: { mergedIntoId: null, aiFollowUpStoppedAt: null }, recorded: true });
    expect((await adapter.handOff(LIVE, handOff())).recorded).toBe(true);

    expect(asked).toEqual([LIVE]);
    expect(statuses()).toEqual(['pending', 'pending']);
    expect(inserts[0].sql).toContain('INSERT INTO contacts.sms_handoffs');
    expect(inserts[0].parameters).toEqual([expect.any(String), LIVE, first.eventId, first.contactId, first.captureId, '+15145550100', 'Élise', 'pending', first.capturedAt, first.handedOffAt]);
  });

  it('a test-mode (sandbox) account records status skipped_test_mode, from the cache the second time', async () => {
    const { adapter, asked, statuses } = setup({ [SANDBOX]: sandbox(SANDBOX), [LIVE]: live(LIVE) });

    await adapter.handOff(SANDBOX, handOff());
    await adapter.handOff(LIVE, handOff());
    await adapter.handOff(SANDBOX, handOff());

    expect(statuses()).toEqual([SMS_HANDOFF_SKIPPED_TEST_MODE, 'pending', SMS_HANDOFF_SKIPPED_TEST_MODE]);
    expect(asked).toEqual([SANDBOX, LIVE]);
  });

  it('an unknown account (the query answers null) is handed off as live but not cached: the next hand-off asks again', async () => {
    const modes: Record<string, AccountModeView | null> = { [UNKNOWN]: null };
    const { adapter, asked, statuses } = setup(modes);

    await adapter.handOff(UNKNOWN, handOff());
    await adapter.handOff(UNKNOWN, handOff());
    expect(asked).toEqual([UNKNOWN, UNKNOWN]);
    expect(statuses()).toEqual(['pending', 'pending']);

    // Once the accounts context knows it (a sandbox), its mode applies and is kept from then on.
    modes[UNKNOWN] = sandbox(UNKNOWN);
    await adapter.handOff(UNKNOWN, handOff());
    await adapter.handOff(UNKNOWN, handOff());
    expect(asked).toEqual([UNKNOWN, UNKNOWN, UNKNOWN]);
    expect(statuses().slice(2)).toEqual([SMS_HANDOFF_SKIPPED_TEST_MODE, SMS_HANDOFF_SKIPPED_TEST_MODE]);
  });

  it('without the accounts context (no query handler) the hand-off is live and the question is asked again next time; other errors are passed on', async () => {
    const { adapter, asked, statuses } = setup({ [LIVE]: new QueryHandlerNotFoundException('GetAccountModeQuery'), [SANDBOX]: new Error('connection lost') });

    await adapter.handOff(LIVE, handOff());
    await adapter.handOff(LIVE, handOff());
    expect(statuses()).toEqual(['pending', 'pending']);
    expect(asked).toEqual([LIVE, LIVE]);

    await expect(adapter.handOff(SANDBOX, handOff())).rejects.toThrow('connection lost');
    expect(statuses()).toHaveLength(2);
  });

  it('a hand-off already recorded (ON CONFLICT DO NOTHING inserts no row) answers recorded false with the contact as read', async () => {
    const queries = { execute: async () => live(LIVE) } as unknown as QueryBus;
    const transactions = { manager: { query: async () => [{ found: true, merged_into_id: null, stopped_at: null, recorded: false }] } } as unknown as TransactionHost;
    expect(await new PostgresSmsFollowUpAdapter(transactions, queries).handOff(LIVE, handOff())).toEqual({
      contact: { mergedIntoId: null, aiFollowUpStoppedAt: null },
      recorded: false,
    });
  });

  it('a contact id that is not a UUID is a missing contact: nothing is asked or sent', async () => {
    const { adapter, asked, inserts } = setup({ [LIVE]: live(LIVE) });
    expect(await adapter.handOff(LIVE, { ...handOff(), contactId: 'not-a-uuid' })).toEqual({ contact: null, recorded: false });
    expect(asked).toEqual([]);
    expect(inserts).toEqual([]);
  });
});
