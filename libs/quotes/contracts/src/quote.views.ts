/**
 * Read shape of a quote (public-api-v1 › Quote) and the value sets this service chose where the spec
 * says "not shown". JSON-safe: timestamps are ISO 8601 UTC strings with milliseconds, amounts are CAD
 * dollars with at most two decimals (computed from integer cents; line `unit_price` and `quantity` up to
 * four, as given), dates are `YYYY-MM-DD`.
 */

/** Every status a quote can have. `paid`: signed and paid in full. */
export const QUOTE_STATUSES = ['draft', 'sent', 'viewed', 'signed', 'paid', 'declined', 'cancelled', 'expired'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** Languages of the quote (email and public page). Default `fr`. */
export const QUOTE_LANGUAGES = ['fr', 'en'] as const;
export type QuoteLanguage = (typeof QUOTE_LANGUAGES)[number];

/**
 * Order of signature and payment on the public page:
 * - `signature_first`: the lead signs, then pays (the `pay` lead action needs a signed quote);
 * - `payment_first`: the lead pays first (a deposit, an instalment or the whole), then signs (`sign` needs a payment);
 * - `signature_only`: the page collects the signature only; payments are not taken from the lead (`pay` is refused).
 */
export const SIGNATURE_PAYMENT_ORDERS = ['signature_first', 'payment_first', 'signature_only'] as const;
export type SignaturePaymentOrder = (typeof SIGNATURE_PAYMENT_ORDERS)[number];

/**
 * Payment plans: `full` (one payment of the total), `deposit` (a deposit then the balance; needs
 * `payment_deposit_type` and `payment_deposit_value`), `installments` (`payment_installments_count`
 * equal payments, the last one absorbing the rounding, every `payment_interval_days` days).
 */
export const PAYMENT_PLAN_TYPES = ['full', 'deposit', 'installments'] as const;
export type PaymentPlanType = (typeof PAYMENT_PLAN_TYPES)[number];

/** `percentage` of the total (more than 0, less than 100, two decimals) or a `fixed` amount in CAD dollars. */
export const PAYMENT_DEPOSIT_TYPES = ['percentage', 'fixed'] as const;
export type PaymentDepositType = (typeof PAYMENT_DEPOSIT_TYPES)[number];

/** `automatic`: instalments charged to the card off-session; `manual`: recorded by the sales rep. Default `manual`. */
export const PAYMENT_EXECUTION_MODES = ['automatic', 'manual'] as const;
export type PaymentExecutionMode = (typeof PAYMENT_EXECUTION_MODES)[number];

/**
 * Tax profiles (`tax_profile_id`; null means the account's `quote_defaults.tax_profile`, itself `gst_qst`
 * by default): `gst_qst` TPS 5 % + TVQ 9.975 %, `gst` TPS 5 % only, `none` no tax (such a quote cannot be
 * sent without a `tax_exempt_reason`: 422 `untaxed_quote`).
 */
export const TAX_PROFILES = ['gst_qst', 'gst', 'none'] as const;
export type TaxProfile = (typeof TAX_PROFILES)[number];

/** What the lead does on the public page (`POST /admin/v1/accounts/{id}/quotes/{quote_id}/lead-actions`). */
export const LEAD_ACTIONS = ['view', 'sign', 'decline', 'pay'] as const;
export type LeadAction = (typeof LEAD_ACTIONS)[number];

export interface QuoteLineItemView {
  description: string;
  /** Up to 4 decimals. */
  quantity: number;
  /** CAD dollars as given, up to 4 decimals (`2.375`), or null for a line not priced yet (422 `unpriced_lines` on send). */
  unit_price: number | null;
  /**
   * quantity × unit_price (exact) rounded half-up to the cent; null when unpriced. For display: the
   * quote's `subtotal` is the exact sum of the lines rounded once, so it may differ from the sum of
   * these rounded amounts by a few cents.
   */
  amount: number | null;
}

export interface QuoteView {
  id: string;
  quote_number: string;
  status: QuoteStatus;
  contact_id: string | null;
  prospect_name: string | null;
  prospect_email: string | null;
  prospect_phone: string | null;
  prospect_company: string | null;
  prospect_address: string | null;
  language: QuoteLanguage;
  valid_until: string | null;
  payment_terms: string | null;
  line_items: QuoteLineItemView[];
  internal_notes: string;
  sales_rep_id: string | null;
  tax_profile_id: TaxProfile | null;
  signature_payment_order: SignaturePaymentOrder;
  tax_exempt_reason: string | null;
  subtotal: number;
  tps_amount: number;
  tvq_amount: number;
  total: number;
  /** Sum of the payments recorded (the `pay` lead action). */
  amount_paid: number;
  payment_plan_type: PaymentPlanType;
  payment_deposit_type: PaymentDepositType | null;
  payment_deposit_value: number | null;
  payment_installments_count: number | null;
  payment_interval_days: number | null;
  payment_execution_mode: PaymentExecutionMode;
  sent_at: string | null;
  /**
   * The lead's public page of the quote (`<PUBLIC_BASE_URL>/q/<token>`, the link of the quote email), once
   * sent; null before. The token is the page's only credential: share the URL only with the lead.
   */
  public_url: string | null;
  viewed_at: string | null;
  signed_at: string | null;
  declined_at: string | null;
  cancelled_at: string | null;
  expired_at: string | null;
  paid_at: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}
