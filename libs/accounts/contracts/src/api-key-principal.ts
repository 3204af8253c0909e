import type { AccountId } from '@leadflow/shared-kernel';
import type { AccountMode } from './account-blueprint';
import type { Feature, Scope } from './scopes';

/** Who is calling: an active, unexpired API key and its account, resolved once per request. */
export interface ApiKeyPrincipal {
  keyId: string;
  keyName: string;
  keyPrefix: string;
  accountId: AccountId;
  accountName: string;
  scopes: Scope[];
  features: Feature[];
  /** Hourly quota (requests per hour). */
  perHour: number;
  /** Per-minute limit of `POST /v1/events` for this key (requests per minute). */
  eventsPerMinute: number;
  apiTermsAccepted: boolean;
  /** When the key was issued (UTC). */
  createdAt: Date;
  /** When the key stops authenticating (UTC), or null for never. */
  expiresAt: Date | null;
  /** `live`, or `test` for a key of a sandbox account (`lf_test_`). */
  mode?: AccountMode;
}
