import { AccountId, Actor, centsToDollars, IntegrationEvent, newId } from '@leadflow/shared-kernel';
import type { QuoteView } from '@leadflow/quotes-contracts';
import { Quote, QuoteState } from '../domain/quote.aggregate';
import type { QuotePublicLinks } from './ports/quote-collaborators.port';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * The quote read shape (public-api-v1 › Quote): amounts in dollars with 2 decimals from integer cents;
 * `unit_price` and `quantity` echoed as given (up to 4 decimals); a line's `amount` is its exact amount
 * rounded half-up to the cent (display only: `subtotal` is rounded once from the exact sum);
 * `public_url` the lead's page once sent (see QuotePublicLinks.urlOf), null before.
 */
export function toQuoteView(state: QuoteState, links: QuotePublicLinks): QuoteView {
  return {
    id: state.id,
    quote_number: state.quoteNumber,
    status: state.status,
    contact_id: state.contactId,
    prospect_name: state.prospectName,
    prospect_email: state.prospectEmail,
    prospect_phone: state.prospectPhone,
    prospect_company: state.prospectCompany,
    prospect_address: state.prospectAddress,
    language: state.language,
    valid_until: state.validUntil,
    payment_terms: state.paymentTerms,
    line_items: state.lineItems.map((line) => {
      const amount = Quote.lineAmount(line);
      return {
        description: line.description,
        quantity: Number(line.quantity),
        unit_price: line.unitPrice === null ? null : Number(line.unitPrice),
        amount: amount === null ? null : centsToDollars(amount),
      };
    }),
    internal_notes: state.internalNotes,
    sales_rep_id: state.salesRepId,
    tax_profile_id: state.taxProfileId,
    signature_payment_order: state.signaturePaymentOrder,
    tax_exempt_reason: state.taxExemptReason,
    subtotal: centsToDollars(state.subtotalCents),
    tps_amount: centsToDollars(state.tpsCents),
    tvq_amount: centsToDollars(state.tvqCents),
    total: centsToDollars(state.totalCents),
    amount_paid: centsToDollars(state.amountPaidCents),
    payment_plan_type: state.paymentPlanType,
    payment_deposit_type: state.paymentDepositType,
    // hundredths: of a percent for `percentage`, of a dollar (cents) for `fixed`
    payment_deposit_value: state.paymentDepositValue === null ? null : state.paymentDepositValue / 100,
    payment_installments_count: state.paymentInstallmentsCount,
    payment_interval_days: state.paymentIntervalDays,
    payment_execution_mode: state.paymentExecutionMode,
    sent_at: iso(state.sentAt),
    public_url: links.urlOf(state),
    viewed_at: iso(state.viewedAt),
    signed_at: iso(state.signedAt),
    declined_at: iso(state.declinedAt),
    cancelled_at: iso(state.cancelledAt),
    expired_at: iso(state.expiredAt),
    paid_at: iso(state.paidAt),
    archived_at: iso(state.archivedAt),
    created_at: state.createdAt.toISOString(),
    updated_at: state.updatedAt.toISOString(),
  };
}

/** An outbox event of this context: `{ quote_id, contact_id, quote, ...extra }`. */
export function quoteEvent(type: string, accountId: AccountId, actor: Actor, occurredAt: Date, view: QuoteView, extra: Record<string, unknown> = {}): IntegrationEvent {
  return { id: newId(), type, accountId, actor, occurredAt, payload: { quote_id: view.id, contact_id: view.contact_id, quote: view, ...extra } };
}
