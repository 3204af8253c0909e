import { Test, TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { AccountId, asAccountId, newId } from '@leadflow/shared-kernel';
import { PlatformModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { AccountsReadModel, AccountsRepository, ApiKeyState } from '@leadflow/accounts-core';
import { AccountsHttpModule } from '../src';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows are asserted field by field */

const QUIET = { log: () => undefined, error: () => undefined, warn: () => undefined, debug: () => undefined, verbose: () => undefined };
const at = (iso: string) => new Date(iso);

/**
 * The accounts adapters on real PostgreSQL (the context runs no job: AccountsJobsModule is empty),
 * through AccountsHttpModule's bindings in an application context without the HTTP server: API keys
 * (tenant filters, the global prefix, names in use, revocation, the authentication join, the throttled
 * `last_used_at`), the tables' uniqueness rules (one main System, one team member per email), and the
 * operator console's keyset list of accounts.
 */
describe('Accounts adapters (PostgreSQL)', () => {
  let services: TestServices;
  let moduleRef: TestingModule;
  let db: DataSource;
  let accounts: AccountsRepository;
  let reads: AccountsReadModel;
  let transactions: TransactionHost;

  beforeAll(async () => {
    services = await createTestServices();
    moduleRef = await Test.createTestingModule({ imports: [PlatformModule.forRoot({ config: services.config() }), AccountsHttpModule] })
      .setLogger(QUIET)
      .compile();
    await moduleRef.init();
    db = moduleRef.get(DataSource);
    accounts = moduleRef.get(AccountsRepository);
    reads = moduleRef.get(AccountsReadModel);
    transactions = moduleRef.get(TransactionHost);
  });
  afterAll(async () => {
    await moduleRef?.close();
    await services?.dispose();
  });

  const account = async (overrides: { createdAt?: Date; features?: any[]; apiTermsAccepted?: boolean; id?: AccountId } = {}): Promise<AccountId> => {
    const id = overrides.id ?? asAccountId(newId());
    await transactions.run(() =>
      accounts.insertAccount({
        id,
        name: 'Rénovations Tremblay',
        timezone: 'America/Montreal',
        features: overrides.features ?? ['public_api'],
        apiTermsAccepted: overrides.apiTermsAccepted ?? true,
        quoteDefaults: {} as never,
        createdAt: overrides.createdAt ?? new Date(),
      }),
    );
    return id;
  };

  const apiKey = async (accountId: AccountId, overrides: Partial<ApiKeyState> = {}): Promise<ApiKeyState> => {
    const key: ApiKeyState = {
      id: newId(),
      name: 'Site web',
      prefix: `lf_${newId().replace(/-/g, '').slice(0, 12)}`,
      secretHash: newId(),
      scopes: ['contacts:read', 'contacts:write'],
      perHour: 1000,
      eventsPerMinute: 60,
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
      createdAt: at('2026-05-01T12:00:00.000Z'),
      ...overrides,
    };
    await transactions.run(() => accounts.insertApiKey(accountId, key));
    return key;
  };

  it("another account's API key id reads as missing and cannot be revoked from there", async () => {
    const a = await account();
    const b = await account();
    const key = await apiKey(a);
    expect(await accounts.findApiKey(a, key.id)).toMatchObject(key);
    expect(await accounts.findApiKey(b, key.id)).toBeNull();
    expect(await transactions.run(() => accounts.revokeApiKey(b, key.id, new Date()))).toBe(false);
    expect((await db.query(`SELECT revoked_at FROM accounts.api_keys WHERE id = $1`, [key.id]))[0].revoked_at).toBeNull();
  });

  it('a revocation is written once: revoking again answers true and keeps the first revoked_at', async () => {
    const a = await account();
    const key = await apiKey(a);
    const first = at('2026-06-01T10:00:00.000Z');
    expect(await transactions.run(() => accounts.revokeApiKey(a, key.id, first))).toBe(true);
    expect(await transactions.run(() => accounts.revokeApiKey(a, key.id, at('2026-06-02T10:00:00.000Z')))).toBe(true);
    expect((await db.query(`SELECT revoked_at FROM accounts.api_keys WHERE id = $1`, [key.id]))[0].revoked_at).toEqual(first);
  });

  it('a key name is in use only among the non-revoked keys of the account', async () => {
    const a = await account();
    const key = await apiKey(a, { name: 'CRM' });
    expect(await accounts.apiKeyNameInUse(a, 'CRM')).toBe(true);
    expect(await accounts.apiKeyNameInUse(await account(), 'CRM')).toBe(false);
    await transactions.run(() => accounts.revokeApiKey(a, key.id, new Date()));
    expect(await accounts.apiKeyNameInUse(a, 'CRM')).toBe(false);
  });

  it('a key prefix is unique across accounts (the reference table api_key_prefixes refuses a second one, 23505), and authentication reads the key with its account in one join', async () => {
    const a = await account({ features: ['public_api', 'quotes'], apiTermsAccepted: false });
    const key = await apiKey(a);
    await expect(apiKey(await account(), { prefix: key.prefix })).rejects.toMatchObject({ driverError: { code: '23505' } });
    expect(await accounts.findKeyByPrefix(key.prefix)).toMatchObject({ ...key, accountId: a, accountName: 'Rénovations Tremblay', features: ['public_api', 'quotes'], apiTermsAccepted: false });
    expect(await accounts.findKeyByPrefix('lf_absent')).toBeNull();
  });

  it('last_used_at is written at most once a minute per key (a touch within the minute writes nothing; a later one moves it)', async () => {
    const a = await account();
    const key = await apiKey(a);
    const lastUsed = async () => (await db.query(`SELECT last_used_at FROM accounts.api_keys WHERE id = $1`, [key.id]))[0].last_used_at;
    const t0 = at('2026-06-01T10:00:00.000Z');
    await accounts.touchApiKey(a, key.id, t0);
    expect(await lastUsed()).toEqual(t0);
    await accounts.touchApiKey(a, key.id, at('2026-06-01T10:00:30.000Z'));
    expect(await lastUsed()).toEqual(t0);
    // Another process (no memory of this one's touch) within the minute: the UPDATE's own condition skips it.
    await db.query(`UPDATE accounts.api_keys SET last_used_at = $2 WHERE id = $1`, [key.id, at('2026-06-01T10:01:00.000Z')]);
    await accounts.touchApiKey(a, key.id, at('2026-06-01T10:01:30.000Z'));
    expect(await lastUsed()).toEqual(at('2026-06-01T10:01:00.000Z'));
    await accounts.touchApiKey(a, key.id, at('2026-06-01T10:03:00.000Z'));
    expect(await lastUsed()).toEqual(at('2026-06-01T10:03:00.000Z'));
  });

  it('an account has at most one main System (systems_one_main_idx) and one team member per email (23505); another account may reuse both', async () => {
    const a = await account();
    const system = (isMain: boolean) => ({ id: newId(), name: isMain ? 'Principal' : 'Secondaire', isMain, isActive: true, createdAt: new Date() });
    const member = (email: string) => ({ id: newId(), email, firstName: null, lastName: null, isActive: true, isSalesRep: false, canDeleteProspects: false, createdAt: new Date() });
    await transactions.run(() => accounts.insertSystems(a, [system(true), system(false)]));
    await expect(transactions.run(() => accounts.insertSystems(a, [system(true)]))).rejects.toMatchObject({ driverError: { code: '23505', constraint: 'systems_one_main_idx' } });
    await transactions.run(() => accounts.insertTeamMembers(a, [member('julie@tremblay.test')]));
    await expect(transactions.run(() => accounts.insertTeamMembers(a, [member('julie@tremblay.test')]))).rejects.toMatchObject({ driverError: { code: '23505' } });
    const b = await account();
    await transactions.run(() => accounts.insertSystems(b, [system(true)]));
    await transactions.run(() => accounts.insertTeamMembers(b, [member('julie@tremblay.test')]));
    expect((await accounts.listSystems(a)).map((entry) => entry.isMain)).toEqual([true, false]);
    expect((await accounts.listTeamMembers(a)).map((entry) => entry.email)).toEqual(['julie@tremblay.test']);
    expect(await accounts.listSystems(asAccountId(newId()))).toEqual([]);
  });

  it("an account's API keys are listed newest first and only for that account", async () => {
    const a = await account();
    const older = await apiKey(a, { createdAt: at('2026-05-01T00:00:00.000Z') });
    const newer = await apiKey(a, { createdAt: at('2026-05-02T00:00:00.000Z'), name: 'CRM' });
    await apiKey(await account());
    expect((await reads.listApiKeys(a)).map((key) => key.id)).toEqual([newer.id, older.id]);
  });

  it('the operator console lists accounts on (created_at, id) descending with an exact total, from a cursor on', async () => {
    const base = Date.parse('2030-01-01T00:00:00.000Z'); // later than every other account of this file
    const made: { id: string; at: number }[] = [];
    for (const offset of [0, 0, 1000, 2000]) made.push({ id: await account({ createdAt: new Date(base + offset) }), at: base + offset });
    const expected = made.sort((x, y) => y.at - x.at || (y.id < x.id ? -1 : 1)).map((entry) => entry.id);
    const total = (await db.query(`SELECT count(*)::int AS n FROM accounts.accounts`))[0].n;
    const first = await reads.listAccounts(2, null);
    expect(first.total).toBe(total);
    expect(first.rows).toHaveLength(3); // limit + 1: the caller knows there is more
    expect(first.rows.slice(0, 2).map((row) => row.id)).toEqual(expected.slice(0, 2));
    const last = first.rows[1];
    const second = await reads.listAccounts(2, { createdAt: last.createdAt, id: last.id });
    expect(second.rows.slice(0, 2).map((row) => row.id)).toEqual(expected.slice(2, 4));
    const legacy = await reads.listAccounts(10, { createdAt: new Date(base + 1000) } as any); // timestamp-only cursor
    expect(legacy.rows.slice(0, 2).map((row) => row.id).sort()).toEqual(expected.slice(2, 4).sort());
  });
});
