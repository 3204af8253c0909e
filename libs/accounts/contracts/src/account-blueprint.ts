import type { PresetName, Scope, Feature } from './scopes';

/** One API key item of a blueprint or of `POST /admin/v1/accounts/{id}/api-keys`. */
export interface ApiKeySpec {
  name: string;
  /** Ignored when `scopes` is given (explicit scopes override the preset). */
  preset?: PresetName;
  scopes?: Scope[];
  /** Hourly quota; null or absent means the service default. */
  perHour?: number | null;
  /** Per-minute limit of `POST /v1/events`; default 60. */
  eventsPerMinute?: number | null;
  expiresAt?: Date | null;
  /** Email of the team member granting the key; needed to grant `contacts:delete` (must be allowed to delete prospects). */
  grantedBy?: string | null;
}

export interface QuoteDefaults {
  validity_days?: number;
  payment_terms?: string | null;
  signature_payment_order?: string;
  tax_profile?: string;
}

/**
 * `live` for an ordinary account, `test` for a sandbox (issue 15, item 4): a sandbox's keys are
 * `lf_test_...`, its emails are recorded and never handed to a transport, its SMS hand-offs are
 * skipped and its webhook payloads carry `livemode: false`.
 */
export type AccountMode = 'live' | 'test';

/** The key prefix's head for a mode: `lf_live_` or `lf_test_`. */
export function apiKeyModePrefix(mode: AccountMode | undefined): string {
  return mode === 'test' ? 'lf_test_' : 'lf_live_';
}

/** The accounts context's part of an account blueprint (operator-api › POST /admin/v1/accounts). */
export interface AccountBlueprintPart {
  name: string;
  timezone?: string;
  /** Absent means every module. */
  features?: Feature[];
  apiTermsAccepted?: boolean;
  quoteDefaults?: QuoteDefaults;
  systems?: { name: string; isMain?: boolean; isActive?: boolean }[];
  teamMembers?: {
    email: string;
    firstName?: string | null;
    lastName?: string | null;
    isActive?: boolean;
    isSalesRep?: boolean;
    canDeleteProspects?: boolean;
  }[];
  apiKeys?: ApiKeySpec[];
  /** Creates a sandbox (mode `test`) of this live account instead of a live account (operator sandbox route only). */
  sandboxOf?: string | null;
}

/** A key as returned once at creation: `{ id, key, prefix }` (prefix is `lf_live_<8>`). */
export interface IssuedApiKey {
  id: string;
  key: string;
  prefix: string;
}

export interface CreatedAccount {
  accountId: string;
  apiKeys: Record<string, IssuedApiKey>;
  systems: Record<string, string>;
  teamMembers: Record<string, string>;
}

/** Account settings as the operator API shows them (`PATCH /admin/v1/accounts/{id}` response). */
export interface AccountView {
  id: string;
  name: string;
  timezone: string;
  features: Feature[];
  api_terms_accepted: boolean;
  quote_defaults: QuoteDefaults;
  created_at: string;
  /** `live` or `test` (a sandbox). */
  mode: AccountMode;
  /** The live account of a sandbox; null for a live account. */
  sandbox_of: string | null;
}

export interface SystemView {
  id: string;
  name: string;
  isMain: boolean;
  isActive: boolean;
}

export interface TeamMemberView {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  isActive: boolean;
  isSalesRep: boolean;
  canDeleteProspects: boolean;
}

/** `GET /v1/me` data (public-api-v1 › API key). */
export interface ApiKeyView {
  key_id: string;
  key_name: string;
  key_prefix: string;
  key_format_version: number;
  client_id: string;
  client_name: string;
  scopes: string[];
  preset: string;
  lifecycle_state: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  rate_limits: { per_hour: number };
  /** `live` for an `lf_live_` key, `test` for an `lf_test_` key of a sandbox account. */
  mode: AccountMode;
}

/** One account in the operator console's list (`ListAccountsQuery`). */
export interface AccountSummaryView {
  id: string;
  name: string;
  timezone: string;
  /** ISO 8601 UTC with milliseconds. */
  created_at: string;
}

/**
 * One API key of an account as the operator sees it (`ListApiKeysQuery`): never the secret nor its hash.
 * `prefix` is `lf_live_<8>`; `preset` is inferred from the scopes (`custom` when none matches);
 * `last_used_at` is written at most once a minute per key (null: never used).
 */
export interface ApiKeySummaryView {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  preset: string;
  lifecycle_state: 'active' | 'revoked' | 'expired';
  per_hour: number;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}
