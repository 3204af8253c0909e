import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { IsNull } from 'typeorm';
import { AccountId, asAccountId } from '@leadflow/shared-kernel';
import type { AccountMode } from '@leadflow/accounts-contracts';
import { AccountCacheInvalidation, TransactionHost } from '@leadflow/shared-platform';
import {
  AccountState,
  AccountsRepository,
  ApiKeyState,
  KeyWithAccount,
  SystemState,
  TeamMemberState,
} from '@leadflow/accounts-core';
import { AccountRecord, ApiKeyRecord, SystemRecord, TeamMemberRecord } from './accounts.records';

/** `last_used_at` is written at most once per this interval per key (milliseconds). */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * TypeORM implementation of {@link AccountsRepository}; every query filters on `account_id`. A write of
 * Systems or team members invalidates the account's `config` caches (lead capture's settings) in every
 * process once the unit of work commits.
 */
@Injectable()
export class TypeOrmAccountsRepository extends AccountsRepository {
  /** When this process last wrote each key's `last_used_at` (epoch milliseconds). */
  private readonly touched = new LRUCache<string, number>({ max: 10_000 });

  constructor(
    private readonly transactions: TransactionHost,
    private readonly invalidation: AccountCacheInvalidation,
  ) {
    super();
  }

  private get manager() {
    return this.transactions.manager;
  }

  async insertAccount(account: AccountState): Promise<void> {
    await this.manager.insert(AccountRecord, { ...account });
  }

  async findAccount(accountId: AccountId): Promise<AccountState | null> {
    const row = await this.manager.findOneBy(AccountRecord, { id: accountId });
    return row ? { ...row, id: asAccountId(row.id) } : null;
  }

  async updateAccount(accountId: AccountId, patch: Partial<Omit<AccountState, 'id' | 'createdAt'>>): Promise<void> {
    if (Object.keys(patch).length > 0) await this.manager.update(AccountRecord, { id: accountId }, patch);
  }

  async insertSystems(accountId: AccountId, systems: SystemState[]): Promise<void> {
    if (systems.length === 0) return;
    await this.manager.insert(SystemRecord, systems.map((system) => ({ ...system, accountId })));
    await this.settingsChanged(accountId);
  }

  async listSystems(accountId: AccountId): Promise<SystemState[]> {
    const rows = await this.manager.find(SystemRecord, { where: { accountId }, order: { isMain: 'DESC', createdAt: 'ASC', id: 'ASC' } });
    return rows.map(({ accountId: _accountId, ...system }) => system);
  }

  async insertTeamMembers(accountId: AccountId, members: TeamMemberState[]): Promise<void> {
    if (members.length === 0) return;
    await this.manager.insert(TeamMemberRecord, members.map((member) => ({ ...member, accountId })));
    await this.settingsChanged(accountId);
  }

  /** After commit (at once outside a unit of work): every process forgets the account's cached settings (`config`). */
  private settingsChanged(accountId: AccountId): Promise<void> {
    return this.transactions.afterCommit(() => this.invalidation.invalidate('config', accountId));
  }

  async listTeamMembers(accountId: AccountId): Promise<TeamMemberState[]> {
    const rows = await this.manager.find(TeamMemberRecord, { where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(({ accountId: _accountId, ...member }) => member);
  }

  /** Writes the key and its row of the reference table `accounts.api_key_prefixes` in one transaction. */
  async insertApiKey(accountId: AccountId, key: ApiKeyState): Promise<void> {
    await this.transactions.run(async () => {
      await this.manager.insert(ApiKeyRecord, { ...key, accountId });
      await this.manager.query(`INSERT INTO accounts.api_key_prefixes (prefix, account_id, key_id) VALUES ($1, $2, $3)`, [key.prefix, accountId, key.id]);
    });
  }

  async findApiKey(accountId: AccountId, keyId: string): Promise<ApiKeyState | null> {
    const row = await this.manager.findOneBy(ApiKeyRecord, { accountId, id: keyId });
    if (!row) return null;
    const { accountId: _accountId, ...key } = row;
    return key;
  }

  apiKeyNameInUse(accountId: AccountId, name: string): Promise<boolean> {
    return this.manager.existsBy(ApiKeyRecord, { accountId, name, revokedAt: IsNull() });
  }

  async revokeApiKey(accountId: AccountId, keyId: string, at: Date): Promise<boolean> {
    const key = await this.manager.findOneBy(ApiKeyRecord, { accountId, id: keyId });
    if (!key) return false;
    if (!key.revokedAt) await this.manager.update(ApiKeyRecord, { accountId, id: keyId }, { revokedAt: at });
    return true;
  }

  /** The prefix's account and key from the reference table, then the key in its account (one statement). */
  async findKeyByPrefix(prefix: string): Promise<KeyWithAccount | null> {
    const rows: Array<Record<string, unknown>> = await this.manager.query(
      `SELECT k.id, k.account_id, k.name, k.prefix, k.secret_hash, k.scopes, k.per_hour, k.events_per_minute,
              k.expires_at, k.revoked_at, k.last_used_at, k.created_at,
              k.mode, a.name AS account_name, a.features, a.api_terms_accepted
         FROM accounts.api_key_prefixes p
         JOIN accounts.api_keys k ON k.account_id = p.account_id AND k.id = p.key_id
         JOIN accounts.accounts a ON a.id = p.account_id
        WHERE p.prefix = $1`,
      [prefix],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id as string,
      accountId: asAccountId(row.account_id as string),
      name: row.name as string,
      prefix: row.prefix as string,
      secretHash: row.secret_hash as string,
      scopes: row.scopes as KeyWithAccount['scopes'],
      perHour: row.per_hour as number,
      eventsPerMinute: row.events_per_minute as number,
      expiresAt: (row.expires_at as Date | null) ?? null,
      revokedAt: (row.revoked_at as Date | null) ?? null,
      lastUsedAt: (row.last_used_at as Date | null) ?? null,
      createdAt: row.created_at as Date,
      accountName: row.account_name as string,
      features: row.features as KeyWithAccount['features'],
      apiTermsAccepted: row.api_terms_accepted as boolean,
      mode: row.mode === 'test' ? 'test' : 'live',
    };
  }

  async findAccountMode(accountId: AccountId): Promise<{ mode: AccountMode; sandboxOf: string | null; sandboxId: string | null } | null> {
    const rows: Array<{ mode: AccountMode; sandbox_of: string | null; sandbox_id: string | null }> = await this.manager.query(
      `SELECT a.mode, a.sandbox_of, s.id AS sandbox_id
         FROM accounts.accounts a LEFT JOIN accounts.accounts s ON s.sandbox_of = a.id
        WHERE a.id = $1`,
      [accountId],
    );
    const row = rows[0];
    return row ? { mode: row.mode, sandboxOf: row.sandbox_of, sandboxId: row.sandbox_id } : null;
  }

  /**
   * Writes `last_used_at` off the request path: skipped in memory when this process wrote it less than a
   * minute ago (no round trip), and the UPDATE itself skips a row another process touched within that minute.
   */
  async touchApiKey(accountId: AccountId, keyId: string, at: Date): Promise<void> {
    const last = this.touched.get(keyId);
    if (last !== undefined && at.getTime() - last < TOUCH_INTERVAL_MS && at.getTime() >= last) return;
    this.touched.set(keyId, at.getTime());
    await this.transactions.dataSource
      .query(
        `UPDATE accounts.api_keys SET last_used_at = $2
          WHERE account_id = $4 AND id = $1 AND (last_used_at IS NULL OR last_used_at < $3)`,
        [keyId, at, new Date(at.getTime() - TOUCH_INTERVAL_MS), accountId],
      )
      .catch(() => undefined);
  }
}
