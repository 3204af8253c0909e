/**
 * Integration events the quotes context writes to `platform.outbox`. `payment_received` is a public
 * webhook name (public-api-v1 › Outbound webhooks); the others are facts for other contexts.
 * Payload: `{ quote_id, contact_id, quote: QuoteView }`, plus `payment: { amount }` for `payment_received`.
 */
export const QUOTE_EVENTS = {
  created: 'quote_created',
  updated: 'quote_updated',
  sent: 'quote_sent',
  viewed: 'quote_viewed',
  signed: 'quote_signed',
  declined: 'quote_declined',
  cancelled: 'quote_cancelled',
  expired: 'quote_expired',
  archived: 'quote_archived',
  /** Signed and paid in full (after the `payment_received` of the last payment). */
  paid: 'quote_paid',
  paymentReceived: 'payment_received',
} as const;
