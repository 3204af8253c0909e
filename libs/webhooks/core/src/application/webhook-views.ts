import type { WebhookSubscriptionRecord } from './ports/webhook-subscription.repository.port';

/** A subscription as `GET /v1/webhooks` shows it (never the secret). `events` is `"*"` for every event. */
export interface WebhookSubscriptionView {
  id: string;
  url: string;
  events: string[] | '*';
  created_at: string;
  /** Why deliveries stopped (`endpoint_gone`: the receiver answered 410; `failing_for_5_days`), null while enabled. */
  disabled_reason: string | null;
}

/** The 201 body of `POST /v1/webhooks`: the view plus the secret, in clear this once. */
export interface CreatedWebhookSubscription extends WebhookSubscriptionView {
  secret: string;
}

export function toSubscriptionView(record: WebhookSubscriptionRecord): WebhookSubscriptionView {
  return {
    id: record.id,
    url: record.url,
    events: record.selection.all ? '*' : record.selection.events,
    created_at: record.createdAt.toISOString(),
    disabled_reason: record.disabledReason ?? null,
  };
}
