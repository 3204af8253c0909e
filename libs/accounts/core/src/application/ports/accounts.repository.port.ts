import type { AccountId } from '@leadflow/shared-kernel';
import type { AccountMode, Feature, QuoteDefaults, Scope } from '@leadflow/accounts-contracts';

export interface AccountState {
  id: AccountId;
  name: string;
  timezone: string;
  features: Feature[];
  apiTermsAccepted: boolean;
  quoteDefaults: QuoteDefaults;
  createdAt: Date;
  /** Absent reads `live`. */
  mode?: AccountMode;
  /** The live account of a sandbox; null or absent for a live account. */
  sandboxOf?: string | null;
}

export interface SystemState {
  id: string;
  name: string;
  isMain: boolean;
  isActive: boolean;
  createdAt: Date;
}

export interface TeamMemberState {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  isActive: boolean;
  isSalesRep: boolean;
  canDeleteProspects: boolean;
  createdAt: Date;
}

export interface ApiKeyState {
  id: string;
  name: string;
  prefix: string;
  secretHash: string;
  scopes: Scope[];
  perHour: number;
  eventsPerMinute: number;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  /** The mode of the key's account (`lf_live_` / `lf_test_`); absent reads `live`. */
  mode?: AccountMode;
}

/** A key with the account fields authentication needs, read in one query. */
export interface KeyWithAccount extends ApiKeyState {
  accountId: AccountId;
  accountName: string;
  features: Feature[];
  apiTermsAccepted: boolean;
}

/**
 * Persistence port of the accounts context. Writes join the caller's unit of work (TransactionHost);
 * every method but the authentication lookup takes the AccountId first.
 */
export abstract class AccountsRepository {
  abstract insertAccount(account: AccountState): Promise<void>;
  abstract findAccount(accountId: AccountId): Promise<AccountState | null>;
  abstract updateAccount(accountId: AccountId, patch: Partial<Omit<AccountState, 'id' | 'createdAt'>>): Promise<void>;
  abstract insertSystems(accountId: AccountId, systems: SystemState[]): Promise<void>;
  abstract listSystems(accountId: AccountId): Promise<SystemState[]>;
  abstract insertTeamMembers(accountId: AccountId, members: TeamMemberState[]): Promise<void>;
  abstract listTeamMembers(accountId: AccountId): Promise<TeamMemberState[]>;
  abstract insertApiKey(accountId: AccountId, key: ApiKeyState): Promise<void>;
  abstract findApiKey(accountId: AccountId, keyId: string): Promise<ApiKeyState | null>;
  /** True when a key of the account that is not revoked has this name. */
  abstract apiKeyNameInUse(accountId: AccountId, name: string): Promise<boolean>;
  /** Sets `revoked_at` unless already set; false when the key is not in the account. */
  abstract revokeApiKey(accountId: AccountId, keyId: string, at: Date): Promise<boolean>;
  /** Authentication lookup by the key's 8-character prefix (the reference table of prefixes, docs/adr/0008). */
  abstract findKeyByPrefix(prefix: string): Promise<KeyWithAccount | null>;
  /** Records use; implementations write at most once a minute per key and never throw. */
  abstract touchApiKey(accountId: AccountId, keyId: string, at: Date): Promise<void>;
  /** The account's mode, its live account (sandbox) and its sandbox (live account); null when unknown. */
  abstract findAccountMode(accountId: AccountId): Promise<{ mode: AccountMode; sandboxOf: string | null; sandboxId: string | null } | null>;
}
