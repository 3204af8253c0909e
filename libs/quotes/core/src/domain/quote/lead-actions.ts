import type { LeadAction, QuoteStatus } from '@leadflow/quotes-contracts';
import { AlreadySignedError, QuoteCancelledError, StatusLockedError } from '../quotes.errors';
import { nextPaymentCents } from './payment-plan';
import { isPastValidity, LeadActionOutcome, OPEN_TO_LEAD, QuoteState, SIGNED } from './quote-state';

const CHANGED: LeadActionOutcome = { changed: true, paymentCents: null };

/** The quote after a lead action (the same state when nothing changed) and what the action did. */
export interface LeadActionResult {
  state: Readonly<QuoteState>;
  outcome: LeadActionOutcome;
}

/**
 * What the lead does on the public page. From-states (refusals 409):
 * - `view`: `sent` → `viewed`; no change from `viewed`, `signed`, `paid`, `declined`, `expired`; `draft` → `status_locked`; `cancelled` → `quote_cancelled`.
 * - `sign`: `sent`/`viewed` → `signed` (`paid` when already paid in full); `signed`/`paid` → `already_signed`;
 *   `cancelled` → `quote_cancelled`; other statuses, a passed validity date, or `payment_first` without a payment → `status_locked`.
 * - `decline`: `sent`/`viewed` without payment → `declined`; `signed`/`paid` → `already_signed`; `cancelled` → `quote_cancelled`; else `status_locked`.
 * - `pay`: records {@link nextPaymentCents}; needs `signed` (`signature_first`) or `sent`/`viewed`/`signed` (`payment_first`);
 *   `signature_only`, nothing left to pay, or another status → `status_locked`; `cancelled` → `quote_cancelled`.
 *   Paid in full and signed → `paid`.
 */
export function applyLeadAction(state: Readonly<QuoteState>, action: LeadAction, now: Date, today: string): LeadActionResult {
  const status = state.status;
  const locked = (reason?: string) => new StatusLockedError(status, { action, ...(reason ? { reason } : {}) });
  if (status === 'cancelled') throw new QuoteCancelledError();
  switch (action) {
    case 'view': {
      if (status === 'draft') throw locked('not_sent');
      if (status !== 'sent') return { state, outcome: { changed: false, paymentCents: null } };
      return { state: { ...state, status: 'viewed', viewedAt: now, updatedAt: now }, outcome: CHANGED };
    }
    case 'sign': {
      if (SIGNED.includes(status)) throw new AlreadySignedError(status);
      if (!OPEN_TO_LEAD.includes(status)) throw locked();
      if (isPastValidity(state, today)) throw locked('expired');
      if (state.signaturePaymentOrder === 'payment_first' && state.amountPaidCents === 0) throw locked('payment_required');
      const paidInFull = state.totalCents > 0 && state.amountPaidCents >= state.totalCents;
      const signed: QuoteState = { ...state, status: paidInFull ? 'paid' : 'signed', signedAt: now, ...(paidInFull ? { paidAt: now } : {}), updatedAt: now };
      return { state: signed, outcome: CHANGED };
    }
    case 'decline': {
      if (SIGNED.includes(status)) throw new AlreadySignedError(status);
      if (!OPEN_TO_LEAD.includes(status)) throw locked();
      if (state.amountPaidCents > 0) throw locked('payment_collected');
      return { state: { ...state, status: 'declined', declinedAt: now, updatedAt: now }, outcome: CHANGED };
    }
    case 'pay': {
      const order = state.signaturePaymentOrder;
      if (order === 'signature_only') throw locked('no_online_payment');
      const allowed: readonly QuoteStatus[] = order === 'payment_first' ? ['sent', 'viewed', 'signed'] : ['signed'];
      if (!allowed.includes(status)) throw locked(order === 'signature_first' && OPEN_TO_LEAD.includes(status) ? 'signature_required' : undefined);
      if (status !== 'signed' && isPastValidity(state, today)) throw locked('expired');
      const amount = nextPaymentCents(state);
      if (amount <= 0) throw locked('paid_in_full');
      const amountPaidCents = state.amountPaidCents + amount;
      const paid = status === 'signed' && amountPaidCents >= state.totalCents;
      const next: QuoteState = {
        ...state,
        amountPaidCents,
        paymentsCount: state.paymentsCount + 1,
        ...(paid ? { status: 'paid' as const, paidAt: now } : {}),
        updatedAt: now,
      };
      return { state: next, outcome: { changed: true, paymentCents: amount } };
    }
  }
}
