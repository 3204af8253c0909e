import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { LeadAction, QuoteView } from './quote.views';

/** Who acts on the public quote page: the lead, not a member (`type` and `id` null, public-api-v1 › Outbound webhooks). */
export const LEAD_ACTOR: Actor = Object.freeze({ type: null, id: null, name: 'lead', via: null });

/**
 * What the lead does on the public quote page, driven by the operator API
 * (`POST /admin/v1/accounts/{account_id}/quotes/{quote_id}/lead-actions`) and by the page itself.
 * From-states: `view` moves `sent` to `viewed` (no change from `viewed`, `signed`, `paid`, `declined`,
 * `expired`); `sign` and `decline` need `sent` or `viewed`; `pay` records the next payment due
 * (see `SIGNATURE_PAYMENT_ORDERS`). Refusals: 409 `already_signed`, `quote_cancelled`, `status_locked`
 * (`details.status`, `details.action`); 404 `resource_not_found` for a missing, archived or other
 * account's quote. Returns the quote after the action.
 */
export class ApplyQuoteLeadActionCommand extends Command<QuoteView> {
  constructor(
    readonly accountId: AccountId,
    readonly quoteId: string,
    readonly action: LeadAction,
    readonly actor: Actor,
  ) {
    super();
  }
}

/**
 * The daily expiry (the worker's repeatable job, callable directly): quotes past `valid_until` — the
 * date in their account's zone, by the injected Clock — that are draft, sent or viewed and unpaid
 * become `expired`, with a `quote_expired` event. Returns how many.
 */
export class ExpireQuotesCommand extends Command<{ expired: number }> {}

/** Archives a quote (the dashboard's action): it leaves lists and cannot be modified (404). Idempotent. */
export class ArchiveQuoteCommand extends Command<QuoteView> {
  constructor(
    readonly accountId: AccountId,
    readonly quoteId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
