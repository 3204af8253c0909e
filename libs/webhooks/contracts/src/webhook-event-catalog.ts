/**
 * The public catalog of webhook event names (public-api-v1 › Events › Outbound webhooks): the only
 * outbox event types ever delivered to subscriptions or shown by `GET /v1/webhook-events`. Every other
 * outbox type (audit and internal facts such as `contact_archived`, `email_queued`) is never delivered.
 * Another context that wants a webhook delivered writes an outbox event whose `type` is one of these
 * names (e.g. the automations `webhook` step writes the step's `event`).
 */
export const WEBHOOK_EVENTS = [
  'lead_created',
  'lead_updated',
  'contact_created',
  'note_created',
  'task_created',
  'stage_changed',
  'quote_sent',
  'quote_signed',
  'quote_declined',
  'payment_received',
  'booking_created',
  'booking_cancelled',
  'automation_completed',
  'email_sent',
  'sms_received',
  'call_ended',
  'presuasion_submission_created',
  'contact_merged',
] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** True when `name` is a public catalog name (case-sensitive). */
export function isWebhookEventName(name: unknown): name is WebhookEventName {
  return typeof name === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(name);
}
