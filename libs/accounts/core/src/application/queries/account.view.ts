import type { AccountView } from '@leadflow/accounts-contracts';
import type { AccountState } from '../ports/accounts.repository.port';

export function toAccountView(account: AccountState): AccountView {
  return {
    id: account.id,
    name: account.name,
    timezone: account.timezone,
    features: account.features,
    api_terms_accepted: account.apiTermsAccepted,
    quote_defaults: account.quoteDefaults,
    created_at: account.createdAt.toISOString(),
    mode: account.mode ?? 'live',
    sandbox_of: account.sandboxOf ?? null,
  };
}
