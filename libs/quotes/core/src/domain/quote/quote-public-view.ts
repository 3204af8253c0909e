import type { QuoteChanges, QuoteState } from './quote-state';

/** The quote's fields under their public names, as `quote_updated` reports them (amounts in cents as stored). */
export function publicFieldsOf(state: Readonly<QuoteState>): Record<string, unknown> {
  const s = state;
  return {
    status: s.status,
    prospect_name: s.prospectName,
    prospect_email: s.prospectEmail,
    prospect_phone: s.prospectPhone,
    prospect_company: s.prospectCompany,
    prospect_address: s.prospectAddress,
    valid_until: s.validUntil,
    payment_terms: s.paymentTerms,
    internal_notes: s.internalNotes,
    sales_rep_id: s.salesRepId,
    tax_profile_id: s.taxProfileId,
    signature_payment_order: s.signaturePaymentOrder,
    tax_exempt_reason: s.taxExemptReason,
    payment_plan_type: s.paymentPlanType,
    payment_deposit_type: s.paymentDepositType,
    payment_deposit_value: s.paymentDepositValue,
    payment_installments_count: s.paymentInstallmentsCount,
    payment_interval_days: s.paymentIntervalDays,
    payment_execution_mode: s.paymentExecutionMode,
    subtotal: s.subtotalCents,
    tps_amount: s.tpsCents,
    tvq_amount: s.tvqCents,
    total: s.totalCents,
  };
}

/** The public fields that differ between two projections of {@link publicFieldsOf}: field → previous and new value. */
export function diffPublicFields(before: Record<string, unknown>, after: Record<string, unknown>): QuoteChanges {
  const changes: QuoteChanges = {};
  for (const [field, previous] of Object.entries(before)) {
    if (previous !== after[field]) changes[field] = { previous, current: after[field] };
  }
  return changes;
}
