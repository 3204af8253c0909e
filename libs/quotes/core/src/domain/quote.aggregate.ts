import { FieldViolation, normalizeEmail, ValidationFailedError } from '@leadflow/shared-kernel';
import type { LeadAction, QuoteLanguage, SignaturePaymentOrder, TaxProfile } from '@leadflow/quotes-contracts';
import {
  AlreadySentError,
  AlreadySignedError,
  DepositNotPayableError,
  InvalidProspectEmailError,
  NoProspectEmailError,
  PaymentPlanLockedError,
  QuoteCancelledError,
  QuoteStatusChangedError,
  SignaturePaymentOrderLockedError,
  StatusLockedError,
  UnpricedLinesError,
  UntaxedQuoteError,
} from './quotes.errors';
import { applyLeadAction } from './quote/lead-actions';
import { depositCents, nextPaymentCents, nextPaymentPlan } from './quote/payment-plan';
import { checkQuotePatch, NewQuoteContext, NewQuoteInput, PATCH_FIELDS, PATCHABLE_STATUSES, PLAN_FIELDS, QuotePatch, readNewQuote, text } from './quote/quote-input.rules';
import { diffPublicFields, publicFieldsOf } from './quote/quote-public-view';
import { CLOSED, isPastValidity, LeadActionOutcome, QuoteChanges, QuoteLine, QuoteState, SIGNED } from './quote/quote-state';
import { computeTotals, lineAmountCents } from './taxes';

export { QUOTE_LIMITS, PATCH_FIELDS, PATCHABLE_STATUSES } from './quote/quote-input.rules';
export type { LineItemInput, NewQuoteContext, NewQuoteInput, ProspectSource, QuoteDefaults, QuotePatch } from './quote/quote-input.rules';
export type { LeadActionOutcome, QuoteChanges, QuoteLine, QuoteState } from './quote/quote-state';

/**
 * The quote aggregate: creation with the account defaults, the PATCH rules, sending preconditions,
 * the lead's actions, expiry and archiving (public-api-v1 › Quote, States › Quote, Endpoints › Quotes;
 * operator-api › Quote taxes, Quote numbers). Amounts are recomputed here, never taken from a request.
 * It keeps the state and its invariants; the rules live beside it in quote/: the input rules
 * (quote-input.rules.ts), the payment plan (payment-plan.ts), the lead's actions (lead-actions.ts) and
 * the public view of the fields (quote-public-view.ts).
 */
export class Quote {
  private constructor(private state: QuoteState) {}

  static restore(state: QuoteState): Quote {
    return new Quote({ ...state, lineItems: state.lineItems.map((line) => ({ ...line })) });
  }

  /** Value checks of a create body (400 `validation_error`, every violation listed). */
  static checkNew(input: NewQuoteInput): void {
    const violations: FieldViolation[] = [];
    readNewQuote(input, violations);
    if (violations.length > 0) throw new ValidationFailedError(violations);
  }

  /**
   * A new draft (POST /v1/quotes): the number and the account defaults assigned (validity, payment
   * terms, signature/payment order, tax profile), omitted prospect fields read from the contact,
   * totals computed. Throws 400 `validation_error` like {@link checkNew}.
   */
  static create(input: NewQuoteInput, context: NewQuoteContext): Quote {
    const violations: FieldViolation[] = [];
    const lineItems = readNewQuote(input, violations);
    if (violations.length > 0) throw new ValidationFailedError(violations);
    const contact = context.contact;
    const pick = (given: string | null | undefined, fallback: string | null | undefined) => (given === undefined ? (text(fallback) ?? null) : (text(given) ?? null));
    const taxProfileId = (input.taxProfileId ?? null) as TaxProfile | null;
    const quote = new Quote({
      id: context.id,
      accountId: context.accountId,
      quoteNumber: context.quoteNumber,
      status: 'draft',
      contactId: contact?.id ?? null,
      prospectName: pick(input.prospectName, contact?.name),
      prospectEmail: pick(input.prospectEmail, contact?.email),
      prospectPhone: pick(input.prospectPhone, contact?.phone),
      prospectCompany: pick(input.prospectCompany, contact?.company),
      prospectAddress: text(input.prospectAddress) ?? null,
      language: (input.language ?? 'fr') as QuoteLanguage,
      validUntil: input.validUntil === undefined ? context.defaultValidUntil : input.validUntil,
      timezone: context.timezone,
      paymentTerms: input.paymentTerms === undefined ? context.defaults.paymentTerms : (text(input.paymentTerms) ?? null),
      lineItems,
      internalNotes: text(input.internalNotes) ?? '',
      salesRepId: input.salesRepId ? input.salesRepId.toLowerCase() : null,
      taxProfileId,
      taxProfile: taxProfileId ?? context.defaults.taxProfile,
      signaturePaymentOrder: (input.signaturePaymentOrder ?? context.defaults.signaturePaymentOrder) as SignaturePaymentOrder,
      taxExemptReason: text(input.taxExemptReason) ?? null,
      subtotalCents: 0,
      tpsCents: 0,
      tvqCents: 0,
      totalCents: 0,
      amountPaidCents: 0,
      paymentsCount: 0,
      paymentPlanType: 'full',
      paymentDepositType: null,
      paymentDepositValue: null,
      paymentInstallmentsCount: null,
      paymentIntervalDays: null,
      paymentExecutionMode: 'manual',
      publicTokenHash: null,
      sentAt: null,
      viewedAt: null,
      signedAt: null,
      declinedAt: null,
      cancelledAt: null,
      expiredAt: null,
      paidAt: null,
      archivedAt: null,
      createdAt: context.now,
      updatedAt: context.now,
    });
    quote.recompute();
    return quote;
  }

  get id(): string {
    return this.state.id;
  }

  get snapshot(): Readonly<QuoteState> {
    return this.state;
  }

  /** Amount shown for a line (cents: the exact amount rounded half-up), null when unpriced. */
  static lineAmount(line: QuoteLine): number | null {
    return lineAmountCents(line);
  }

  private recompute(): void {
    const totals = computeTotals(this.state.lineItems, this.state.taxProfile, this.state.taxExemptReason !== null);
    this.state = { ...this.state, ...totals };
  }

  /**
   * Request-level checks of a PATCH body, before the quote is read: rule 1 (400 `no_fields`), rule 2
   * (`status` alone: 400 `validation_error` reason `exclusive_field`; only `declined` or `cancelled`),
   * values (enums, dates, `tax_exempt_reason` length, plan numbers).
   */
  static checkPatch(patch: QuotePatch): void {
    checkQuotePatch(patch);
  }

  /**
   * PATCH /v1/quotes/{id} once the quote is read (call {@link checkPatch} first): rule 2 (409
   * `status_locked` for a signed, paid, closed or partly paid quote), rule 3 (409 `payment_plan_locked`
   * once a payment is collected; inconsistent plan fields: 400 `validation_error`), rule 4 (409
   * `signature_payment_order_locked` once the quote is no longer a draft), rule 5 (totals recomputed).
   * A locked field is locked, not its changes: naming it at all is refused, even with its current value
   * (README › Decisions › Locked field means locked), and a refusal changes nothing.
   * `accountTaxProfile` is what a null `tax_profile_id` means. Returns the changed fields.
   */
  update(patch: QuotePatch, now: Date, accountTaxProfile: TaxProfile): QuoteChanges {
    const before = publicFieldsOf(this.state);
    if (patch.status !== undefined) {
      this.close(patch.status as (typeof PATCHABLE_STATUSES)[number], now);
      return this.diff(before);
    }
    const planFields = PLAN_FIELDS.filter((key) => patch[key] !== undefined);
    if (planFields.length > 0 && this.state.amountPaidCents > 0) throw new PaymentPlanLockedError(planFields.map((key) => PATCH_FIELDS[key]));
    if (patch.signaturePaymentOrder !== undefined && this.state.status !== 'draft') {
      throw new SignaturePaymentOrderLockedError(this.state.status);
    }
    const plan = nextPaymentPlan(this.state, patch);
    const next: QuoteState = { ...this.state, ...plan };
    const setText = <K extends 'prospectName' | 'prospectEmail' | 'prospectPhone' | 'prospectCompany' | 'prospectAddress' | 'paymentTerms'>(key: K) => {
      if (patch[key] !== undefined) next[key] = text(patch[key]) ?? null;
    };
    setText('prospectName');
    setText('prospectEmail');
    setText('prospectPhone');
    setText('prospectCompany');
    setText('prospectAddress');
    setText('paymentTerms');
    if (patch.validUntil !== undefined) next.validUntil = patch.validUntil;
    if (patch.internalNotes !== undefined) next.internalNotes = text(patch.internalNotes) ?? '';
    if (patch.salesRepId !== undefined) next.salesRepId = patch.salesRepId ? patch.salesRepId.toLowerCase() : null;
    if (patch.signaturePaymentOrder !== undefined) next.signaturePaymentOrder = patch.signaturePaymentOrder as SignaturePaymentOrder;
    if (patch.taxExemptReason !== undefined) next.taxExemptReason = text(patch.taxExemptReason) ?? null;
    if (patch.taxProfileId !== undefined) {
      next.taxProfileId = (patch.taxProfileId ?? null) as TaxProfile | null;
      next.taxProfile = next.taxProfileId ?? accountTaxProfile;
    }
    this.state = next;
    this.recompute();
    const changes = this.diff(before);
    if (Object.keys(changes).length > 0) this.state = { ...this.state, updatedAt: now };
    return changes;
  }

  /** PATCH status: `declined` or `cancelled` from a quote not yet signed, paid (even in part) or closed; 409 `status_locked` otherwise. */
  private close(status: 'declined' | 'cancelled', now: Date): void {
    const current = this.state.status;
    if (SIGNED.includes(current) || CLOSED.includes(current)) throw new StatusLockedError(current);
    if (this.state.amountPaidCents > 0) throw new StatusLockedError(current, { reason: 'payment_collected' });
    this.state = {
      ...this.state,
      status,
      ...(status === 'declined' ? { declinedAt: now } : { cancelledAt: now }),
      updatedAt: now,
    };
  }

  /** True when `valid_until` is before `today` (both in the quote's zone). */
  isPastValidity(today: string): boolean {
    return isPastValidity(this.state, today);
  }

  /**
   * Preconditions of POST /v1/quotes/{id}/send, in this order: 409 `already_signed`, `quote_cancelled`,
   * `already_sent` (sent, viewed, declined), `quote_status_changed` (expired, or a draft past its validity
   * date); 422 `no_prospect_email`, `invalid_prospect_email`, `unpriced_lines`, `untaxed_quote`,
   * `deposit_not_payable`. Returns the normalised recipient.
   */
  assertSendable(today: string): string {
    const { status } = this.state;
    if (SIGNED.includes(status)) throw new AlreadySignedError(status);
    if (status === 'cancelled') throw new QuoteCancelledError();
    if (status === 'sent' || status === 'viewed' || status === 'declined') throw new AlreadySentError(status);
    if (status === 'expired') throw new QuoteStatusChangedError(status, 'expired');
    if (this.isPastValidity(today)) throw new QuoteStatusChangedError(status, 'valid_until_passed');
    if (this.state.prospectEmail === null) throw new NoProspectEmailError();
    const recipient = normalizeEmail(this.state.prospectEmail);
    if (!recipient) throw new InvalidProspectEmailError();
    const lines = this.state.lineItems;
    if (lines.length === 0) throw new UnpricedLinesError([], 'no_line_items');
    const unpriced = lines.flatMap((line, index) => (line.unitPrice === null ? [`line_items[${index}]`] : []));
    if (unpriced.length > 0) throw new UnpricedLinesError(unpriced, 'unpriced_lines');
    if (this.state.subtotalCents === 0) throw new UnpricedLinesError([], 'zero_subtotal');
    if (this.state.taxExemptReason === null && this.state.tpsCents + this.state.tvqCents === 0) throw new UntaxedQuoteError(this.state.taxProfile);
    if (this.state.paymentPlanType === 'deposit') {
      const deposit = this.depositCents();
      if (deposit < 1 || deposit > this.state.totalCents) throw new DepositNotPayableError(deposit, this.state.totalCents);
    }
    return recipient;
  }

  /** Fills the prospect email from the contact when the quote has none (before {@link assertSendable}). */
  completeProspectEmail(email: string | null): void {
    if (this.state.prospectEmail === null && email) this.state = { ...this.state, prospectEmail: email };
  }

  /** After a successful send: status `sent`, `sent_at`, the contact linked, the page token's hash. */
  markSent(now: Date, contactId: string, tokenHash: string, recipient: string): void {
    this.state = { ...this.state, status: 'sent', sentAt: now, contactId, publicTokenHash: tokenHash, prospectEmail: recipient, updatedAt: now };
  }

  /** The deposit in cents (percentage of the total rounded half-up, or the fixed amount). */
  depositCents(): number {
    return depositCents(this.state);
  }

  /** The next payment due by the plan: the deposit then the balance, equal instalments with the last absorbing the rounding, or the total. */
  nextPaymentCents(): number {
    return nextPaymentCents(this.state);
  }

  /** What the lead does on the public page: the rules of {@link applyLeadAction} (quote/lead-actions.ts), 409 refusals. */
  applyLeadAction(action: LeadAction, now: Date, today: string): LeadActionOutcome {
    const { state, outcome } = applyLeadAction(this.state, action, now, today);
    this.state = state;
    return outcome;
  }

  /** The validity date passed (`today` in the quote's zone): a draft, sent or viewed quote without payment becomes `expired`. */
  expire(now: Date, today: string): boolean {
    const { status } = this.state;
    if (!['draft', 'sent', 'viewed'].includes(status) || this.state.amountPaidCents > 0 || !this.isPastValidity(today)) return false;
    this.state = { ...this.state, status: 'expired', expiredAt: now, updatedAt: now };
    return true;
  }

  /** Archives (idempotent): the quote leaves lists and answers 404 to writes. */
  archive(now: Date): boolean {
    if (this.state.archivedAt !== null) return false;
    this.state = { ...this.state, archivedAt: now, updatedAt: now };
    return true;
  }

  private diff(before: Record<string, unknown>): QuoteChanges {
    return diffPublicFields(before, publicFieldsOf(this.state));
  }
}
