import type { AccountId } from '@leadflow/shared-kernel';
import {
  AccountState,
  AccountsRepository,
  ApiKeyState,
  KeyWithAccount,
  SystemState,
  TeamMemberState,
} from '../application/ports/accounts.repository.port';

/** In-memory fake of {@link AccountsRepository} for handler unit tests (not a jest mock). */
export class InMemoryAccountsRepository extends AccountsRepository {
  readonly accounts = new Map<string, AccountState>();
  readonly systems = new Map<string, SystemState[]>();
  readonly members = new Map<string, TeamMemberState[]>();
  readonly keys = new Map<string, ApiKeyState & { accountId: AccountId }>();
  readonly touched: string[] = [];

  async insertAccount(account: AccountState): Promise<void> {
    this.accounts.set(account.id, { ...account });
  }
  async findAccount(accountId: AccountId): Promise<AccountState | null> {
    return this.accounts.get(accountId) ?? null;
  }
  async updateAccount(accountId: AccountId, patch: Partial<AccountState>): Promise<void> {
    const current = this.accounts.get(accountId);
    if (current) this.accounts.set(accountId, { ...current, ...patch });
  }
  async insertSystems(accountId: AccountId, systems: SystemState[]): Promise<void> {
    this.systems.set(accountId, [...(this.systems.get(accountId) ?? []), ...systems]);
  }
  async listSystems(accountId: AccountId): Promise<SystemState[]> {
    return [...(this.systems.get(accountId) ?? [])].sort((a, b) => Number(b.isMain) - Number(a.isMain));
  }
  async insertTeamMembers(accountId: AccountId, members: TeamMemberState[]): Promise<void> {
    this.members.set(accountId, [...(this.members.get(accountId) ?? []), ...members]);
  }
  async listTeamMembers(accountId: AccountId): Promise<TeamMemberState[]> {
    return this.members.get(accountId) ?? [];
  }
  async insertApiKey(accountId: AccountId, key: ApiKeyState): Promise<void> {
    this.keys.set(key.id, { ...key, accountId });
  }
  async findApiKey(accountId: AccountId, keyId: string): Promise<ApiKeyState | null> {
    const key = this.keys.get(keyId);
    return key && key.accountId === accountId ? key : null;
  }
  async apiKeyNameInUse(accountId: AccountId, name: string): Promise<boolean> {
    return [...this.keys.values()].some((key) => key.accountId === accountId && key.name === name && !key.revokedAt);
  }
  async revokeApiKey(accountId: AccountId, keyId: string, at: Date): Promise<boolean> {
    const key = await this.findApiKey(accountId, keyId);
    if (!key) return false;
    key.revokedAt ??= at;
    return true;
  }
  async findKeyByPrefix(prefix: string): Promise<KeyWithAccount | null> {
    const key = [...this.keys.values()].find((candidate) => candidate.prefix === prefix);
    if (!key) return null;
    const account = this.accounts.get(key.accountId)!;
    return { ...key, accountName: account.name, features: account.features, apiTermsAccepted: account.apiTermsAccepted };
  }
  async touchApiKey(_accountId: AccountId, keyId: string): Promise<void> {
    this.touched.push(keyId);
  }
  async findAccountMode(accountId: AccountId): Promise<{ mode: 'live' | 'test'; sandboxOf: string | null; sandboxId: string | null } | null> {
    const account = this.accounts.get(accountId);
    if (!account) return null;
    const sandbox = [...this.accounts.values()].find((candidate) => candidate.sandboxOf === accountId);
    return { mode: account.mode ?? 'live', sandboxOf: account.sandboxOf ?? null, sandboxId: sandbox?.id ?? null };
  }
}
