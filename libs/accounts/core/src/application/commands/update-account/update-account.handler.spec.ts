import { asAccountId, FixedClock, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { CreateAccountCommand, CreateApiKeyCommand, RevokeApiKeyCommand, UpdateAccountCommand } from '@leadflow/accounts-contracts';
import { InMemoryAccountsActivityLog } from '../../../testing/in-memory-accounts-activity.log';
import { InMemoryAccountsRepository } from '../../../testing/in-memory-accounts.repository';
import { InMemoryApiKeyCache } from '../../../testing/in-memory-api-key-cache';
import { CreateApiKeyHandler } from '../create-api-key/create-api-key.handler';
import { RevokeApiKeyHandler } from '../revoke-api-key/revoke-api-key.handler';
import { CreateAccountHandler } from '../create-account/create-account.handler';
import { UpdateAccountHandler } from './update-account.handler';

const OPERATOR = { type: 'operator' as const, id: null, name: 'operator', via: null };

describe('account settings and key activity (operator-api › PATCH account, api-keys, revoke)', () => {
  const clock = new FixedClock(new Date('2026-11-22T12:00:00.000Z'));
  let repository: InMemoryAccountsRepository;
  let activity: InMemoryAccountsActivityLog;
  let cache: InMemoryApiKeyCache;
  let accountId: ReturnType<typeof asAccountId>;

  beforeEach(async () => {
    repository = new InMemoryAccountsRepository();
    activity = new InMemoryAccountsActivityLog();
    cache = new InMemoryApiKeyCache();
    const created = await new CreateAccountHandler(repository, activity, { defaultKeyPerHour: 1000 }, clock).execute(
      new CreateAccountCommand({ name: 'T', apiKeys: [{ name: 'full', preset: 'full_integration' }] }, OPERATOR),
    );
    accountId = asAccountId(created.accountId);
  });

  it('records api_key_created for blueprint keys, by the actor, without the raw key', () => {
    expect(activity.entries).toEqual([
      expect.objectContaining({ accountId, type: 'api_key_created', actor: OPERATOR, data: expect.objectContaining({ key_name: 'full', preset: 'full_integration' }) }),
    ]);
    const key = [...repository.keys.values()][0];
    expect(JSON.stringify(activity.entries)).not.toContain(key.secretHash);
  });

  it('refuses an invalid time zone and names given twice', async () => {
    const handler = new CreateAccountHandler(repository, activity, { defaultKeyPerHour: 1000 }, clock);
    await expect(handler.execute(new CreateAccountCommand({ name: 'T', timezone: 'Mars/Phobos' }))).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'timezone', reason: 'invalid_timezone' }],
    });
    await expect(
      handler.execute(new CreateAccountCommand({ name: 'T', systems: [{ name: 'A' }, { name: 'A' }], apiKeys: [{ name: 'k' }, { name: 'k' }] })),
    ).rejects.toMatchObject({
      details: [expect.objectContaining({ field: 'systems[1].name', reason: 'duplicate' }), expect.objectContaining({ field: 'api_keys[1].name', reason: 'duplicate' })],
    });
  });

  it('updates the settings, merging quote defaults, and records account_updated with what changed', async () => {
    const handler = new UpdateAccountHandler(repository, activity, cache);
    const view = await handler.execute(
      new UpdateAccountCommand(accountId, { timezone: 'Europe/Paris', features: ['quotes', 'quotes'], quoteDefaults: { validity_days: 10 } }, OPERATOR),
    );
    expect(view).toMatchObject({ timezone: 'Europe/Paris', features: ['quotes'], quote_defaults: { validity_days: 10, tax_profile: 'gst_qst' } });
    expect(cache.invalidated).toEqual([accountId]); // features and terms are cached with the keys
    expect(activity.entries.at(-1)).toEqual({
      accountId,
      type: 'account_updated',
      actor: OPERATOR,
      data: {
        changes: {
          timezone: { from: 'America/Montreal', to: 'Europe/Paris' },
          features: { from: expect.arrayContaining(['public_api']), to: ['quotes'] },
          quote_defaults: { from: expect.objectContaining({ validity_days: 30 }), to: expect.objectContaining({ validity_days: 10 }) },
        },
      },
    });
  });

  it('records nothing when nothing changes, refuses an empty patch, a bad zone, an unknown feature or account', async () => {
    const handler = new UpdateAccountHandler(repository, activity, cache);
    const before = activity.entries.length;
    await handler.execute(new UpdateAccountCommand(accountId, { timezone: 'America/Montreal' }));
    expect(activity.entries).toHaveLength(before);
    await expect(handler.execute(new UpdateAccountCommand(accountId, {}))).rejects.toMatchObject({ code: 'no_fields' });
    await expect(handler.execute(new UpdateAccountCommand(accountId, { timezone: 'Nowhere' }))).rejects.toMatchObject({
      details: [{ field: 'timezone', reason: 'invalid_timezone' }],
    });
    await expect(handler.execute(new UpdateAccountCommand(accountId, { features: ['x' as never] }))).rejects.toMatchObject({ code: 'validation_error' });
    await expect(handler.execute(new UpdateAccountCommand(asAccountId('5d6c1b0e-0000-4000-8000-000000000000'), { timezone: 'UTC' }))).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('records api_key_created and api_key_revoked (once) for keys created and revoked later', async () => {
    const created = await new CreateApiKeyHandler(repository, activity, { defaultKeyPerHour: 1000 }, clock).execute(
      new CreateApiKeyCommand(accountId, { name: 'extra' }, SYSTEM_ACTOR),
    );
    const revoke = new RevokeApiKeyHandler(repository, activity, cache, clock);
    await revoke.execute(new RevokeApiKeyCommand(accountId, created.id, OPERATOR));
    await revoke.execute(new RevokeApiKeyCommand(accountId, created.id, OPERATOR));
    expect(activity.entries.slice(1).map((entry) => [entry.type, entry.data.key_id])).toEqual([
      ['api_key_created', created.id],
      ['api_key_revoked', created.id],
    ]);
  });
});
