import { FixedClock, ValidationFailedError, asAccountId } from '@leadflow/shared-kernel';
import { CreateAccountCommand, FEATURES, PRESETS, ResolveApiKeyQuery, RevokeApiKeyCommand } from '@leadflow/accounts-contracts';
import { InMemoryAccountsActivityLog } from '../../../testing/in-memory-accounts-activity.log';
import { InMemoryAccountsRepository } from '../../../testing/in-memory-accounts.repository';
import { InMemoryApiKeyCache } from '../../../testing/in-memory-api-key-cache';
import { ResolveApiKeyHandler } from '../../queries/resolve-api-key/resolve-api-key.handler';
import { CreateAccountHandler } from './create-account.handler';
import { RevokeApiKeyHandler } from '../revoke-api-key/revoke-api-key.handler';

describe('CreateAccountHandler (operator-api › POST /admin/v1/accounts, accounts part)', () => {
  const clock = new FixedClock(new Date('2026-11-22T12:00:00.000Z'));
  let repository: InMemoryAccountsRepository;
  let activity: InMemoryAccountsActivityLog;
  let handler: CreateAccountHandler;

  beforeEach(() => {
    repository = new InMemoryAccountsRepository();
    activity = new InMemoryAccountsActivityLog();
    handler = new CreateAccountHandler(repository, activity, { defaultKeyPerHour: 1000 }, clock);
  });

  it('gives every module when features are absent, and a Main System when none is given', async () => {
    const created = await handler.execute(new CreateAccountCommand({ name: 'Tremblay' }));
    const account = repository.accounts.get(created.accountId)!;
    expect(account.features).toEqual([...FEATURES]);
    expect(account.timezone).toBe('America/Montreal');
    expect(account.apiTermsAccepted).toBe(false);
    expect(await repository.listSystems(asAccountId(created.accountId))).toEqual([
      expect.objectContaining({ name: 'Main', isMain: true, isActive: true }),
    ]);
  });

  it('makes the first active System main when none is flagged, and keeps an inactive one inactive', async () => {
    const created = await handler.execute(
      new CreateAccountCommand({ name: 'T', systems: [{ name: 'Laval', isActive: false }, { name: 'Québec' }] }),
    );
    const systems = await repository.listSystems(asAccountId(created.accountId));
    expect(systems.find((s) => s.name === 'Québec')).toMatchObject({ isMain: true, isActive: true });
    expect(systems.find((s) => s.name === 'Laval')).toMatchObject({ isMain: false, isActive: false });
  });

  it('refuses two main Systems with validation_error on field systems', async () => {
    await expect(
      handler.execute(new CreateAccountCommand({ name: 'T', systems: [{ name: 'A', isMain: true }, { name: 'B', isMain: true }] })),
    ).rejects.toMatchObject({ code: 'validation_error', details: [{ field: 'systems', reason: 'invalid_value' }] });
  });

  it('gives preset scopes, explicit scopes overriding the preset, and the default hourly quota', async () => {
    const created = await handler.execute(
      new CreateAccountCommand({
        name: 'T',
        apiKeys: [
          { name: 'capture', preset: 'lead_capture' },
          { name: 'custom', preset: 'full_integration', scopes: ['contacts:read'] },
          { name: 'full', preset: 'full_integration', perHour: 5000 },
        ],
      }),
    );
    const keyOf = (name: string) => repository.keys.get(created.apiKeys[name].id)!;
    expect(keyOf('capture').scopes).toEqual(PRESETS.lead_capture);
    expect(keyOf('capture').perHour).toBe(1000);
    expect(keyOf('custom').scopes).toEqual(['contacts:read']);
    expect(keyOf('full').perHour).toBe(5000);
  });

  it('refuses contacts:delete granted by a member not allowed to delete prospects', async () => {
    const attempt = handler.execute(
      new CreateAccountCommand({
        name: 'T',
        teamMembers: [{ email: 'marc@tremblay.test', canDeleteProspects: false }],
        apiKeys: [{ name: 'full', preset: 'full_integration', grantedBy: 'marc@tremblay.test' }],
      }),
    );
    await expect(attempt).rejects.toBeInstanceOf(ValidationFailedError);
    await expect(attempt).rejects.toMatchObject({ details: [{ field: 'api_keys[0].granted_by', reason: 'grant_not_allowed' }] });
  });

  it('resolves an issued key to its principal until it is revoked or expires', async () => {
    const created = await handler.execute(
      new CreateAccountCommand({
        name: 'T',
        apiKeys: [
          { name: 'full', preset: 'full_integration' },
          { name: 'short', preset: 'lead_capture', expiresAt: new Date('2026-11-22T13:00:00.000Z') },
        ],
      }),
    );
    const cache = new InMemoryApiKeyCache();
    const resolve = new ResolveApiKeyHandler(repository, cache, clock);
    const principal = await resolve.execute(new ResolveApiKeyQuery(created.apiKeys.full.key));
    expect(principal).toMatchObject({ keyId: created.apiKeys.full.id, accountId: created.accountId, keyName: 'full' });
    expect(await resolve.execute(new ResolveApiKeyQuery(`${created.apiKeys.full.key}x`))).toBeNull();

    await new RevokeApiKeyHandler(repository, activity, cache, clock).execute(new RevokeApiKeyCommand(asAccountId(created.accountId), created.apiKeys.full.id));
    expect(cache.invalidated).toEqual([created.accountId]);
    expect(await resolve.execute(new ResolveApiKeyQuery(created.apiKeys.full.key))).toBeNull();

    expect(await resolve.execute(new ResolveApiKeyQuery(created.apiKeys.short.key))).not.toBeNull();
    // Cached from here on: the expiry is still checked against the clock on every request.
    const loads = cache.loads;
    expect(await resolve.execute(new ResolveApiKeyQuery(created.apiKeys.short.key))).not.toBeNull();
    expect(cache.loads).toBe(loads);
    clock.set(new Date('2026-11-22T13:00:00.000Z'));
    expect(await resolve.execute(new ResolveApiKeyQuery(created.apiKeys.short.key))).toBeNull();
  });

  it('authentication answers a cached key from memory: a second resolve of the same key does not read the repository', async () => {
    const created = await handler.execute(new CreateAccountCommand({ name: 'T', apiKeys: [{ name: 'full', preset: 'full_integration' }] }));
    const cache = new InMemoryApiKeyCache();
    const resolve = new ResolveApiKeyHandler(repository, cache, clock);
    const lookups = jest.spyOn(repository, 'findKeyByPrefix');
    await resolve.execute(new ResolveApiKeyQuery(created.apiKeys.full.key));
    await resolve.execute(new ResolveApiKeyQuery(created.apiKeys.full.key));
    expect(lookups).toHaveBeenCalledTimes(1);
    expect(cache.loads).toBe(1);
    expect([...cache.entries.keys()][0]).not.toContain(created.apiKeys.full.key);
  });

  it('requests of a cached key share one frozen principal; once the key is evicted and read again, a new one', async () => {
    const created = await handler.execute(new CreateAccountCommand({ name: 'T', apiKeys: [{ name: 'full', preset: 'full_integration' }] }));
    const cache = new InMemoryApiKeyCache();
    const resolve = new ResolveApiKeyHandler(repository, cache, clock);
    const first = await resolve.execute(new ResolveApiKeyQuery(created.apiKeys.full.key));
    const second = await resolve.execute(new ResolveApiKeyQuery(created.apiKeys.full.key));
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toMatchObject({ keyName: 'full', accountName: 'T' });

    await cache.invalidateAccount(first!.accountId as never);
    const reread = await resolve.execute(new ResolveApiKeyQuery(created.apiKeys.full.key));
    expect(reread).not.toBe(first);
    expect(reread).toEqual(first);
  });
});
