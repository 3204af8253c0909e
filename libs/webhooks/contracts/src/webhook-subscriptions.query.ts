import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/** A subscription as the operator sees it: every key's, never the secret. `events` is `"*"` for every event. */
export interface OperatorWebhookSubscriptionView {
  id: string;
  url: string;
  events: string[] | '*';
  /** The key that created it (the only one that lists or deletes it through `/v1/webhooks`). */
  api_key_id: string;
  /** ISO 8601 UTC with milliseconds. */
  created_at: string;
  /** Why deliveries stopped (`endpoint_gone`, `failing_for_5_days`), null while enabled. */
  disabled_reason: string | null;
}

/** Operator read (the console): every webhook subscription of the account, whichever key made it, newest first (at most 10 per account). */
export class ListAccountWebhookSubscriptionsQuery extends Query<OperatorWebhookSubscriptionView[]> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}
