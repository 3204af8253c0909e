import { centsToDollars, DomainError, ResourceNotFoundError } from '@leadflow/shared-kernel';

/**
 * Errors of the quotes context: DomainError subclasses with the spec's stable codes (public-api-v1 ›
 * Errors, Endpoints › Quotes); the HTTP status comes from the code (shared-platform's error catalog).
 */

/** 404 `resource_not_found`: the quote is missing, archived, or another account's (all alike). */
export class QuoteNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('resource_not_found', 'No such quote.', { resource: 'quote' });
  }
}

/** 400 `no_fields`: a PATCH body without any field (PATCH /v1/quotes/{id} rule 1). */
export class NoFieldsError extends DomainError {
  constructor() {
    super('no_fields', 'Send at least one field to update.', null);
  }
}

/** 409 `status_locked`: the quote is signed, paid (in part or in full) or closed, or the action is not allowed from its status. */
export class StatusLockedError extends DomainError {
  constructor(status: string, extra: Record<string, unknown> = {}) {
    super('status_locked', `The quote is ${status}: its status cannot change this way.`, { status, ...extra });
  }
}

/** 409 `payment_plan_locked`: a payment was collected (PATCH rule 3); `conflicting_fields` names every plan field sent, changed or not. */
export class PaymentPlanLockedError extends DomainError {
  constructor(fields: string[]) {
    super('payment_plan_locked', 'A payment was collected: the payment plan can no longer change.', { conflicting_fields: fields });
  }
}

/** 409 `signature_payment_order_locked`: the field is named on a quote that is no longer a draft (PATCH rule 4), whatever its value. */
export class SignaturePaymentOrderLockedError extends DomainError {
  constructor(status: string) {
    super('signature_payment_order_locked', 'The quote is no longer a draft: signature_payment_order is locked.', {
      field: 'signature_payment_order',
      status,
    });
  }
}

/** 409 `already_signed`. */
export class AlreadySignedError extends DomainError {
  constructor(status: string) {
    super('already_signed', 'The quote is already signed.', { status });
  }
}

/** 409 `quote_cancelled`. */
export class QuoteCancelledError extends DomainError {
  constructor() {
    super('quote_cancelled', 'The quote is cancelled.', { status: 'cancelled' });
  }
}

/** 409 `already_sent`: the quote left the draft state by being sent (sent, viewed or declined). */
export class AlreadySentError extends DomainError {
  constructor(status: string) {
    super('already_sent', 'The quote was already sent.', { status });
  }
}

/** 409 `quote_status_changed`: the quote is no longer a draft that can be sent: it expired (by status or by its validity date). */
export class QuoteStatusChangedError extends DomainError {
  constructor(status: string, reason: string) {
    super('quote_status_changed', 'The quote is no longer a draft that can be sent.', { status, reason });
  }
}

/** 409 `send_in_progress`: another send of this quote holds it. */
export class SendInProgressError extends DomainError {
  constructor() {
    super('send_in_progress', 'The quote is being sent by another request.', null);
  }
}

/** 409 `recipient_unsubscribed`: the prospect's address is on the account's unsubscribe list. */
export class RecipientUnsubscribedError extends DomainError {
  constructor() {
    super('recipient_unsubscribed', 'The prospect unsubscribed from emails.', { field: 'prospect_email' });
  }
}

/** 409 `sender_unavailable`: neither an active sales rep nor the account's default sender can send it. */
export class SenderUnavailableError extends DomainError {
  constructor() {
    super('sender_unavailable', 'No sender is available: the sales rep is inactive or absent and the account has no default sender.', null);
  }
}

/** 422 `no_prospect_email`. */
export class NoProspectEmailError extends DomainError {
  constructor() {
    super('no_prospect_email', 'The quote has no prospect email to send it to.', { field: 'prospect_email' });
  }
}

/** 422 `invalid_prospect_email`. */
export class InvalidProspectEmailError extends DomainError {
  constructor() {
    super('invalid_prospect_email', 'The prospect email is not a valid address.', { field: 'prospect_email' });
  }
}

/** 422 `unpriced_lines`: no line item, a line without unit price, or nothing to pay (subtotal 0). */
export class UnpricedLinesError extends DomainError {
  constructor(lines: string[], reason: 'no_line_items' | 'unpriced_lines' | 'zero_subtotal') {
    super('unpriced_lines', 'Every line item needs a price and the quote an amount.', { field: 'line_items', reason, lines });
  }
}

/** 422 `untaxed_quote`: a priced quote whose taxes are 0 without a `tax_exempt_reason`. */
export class UntaxedQuoteError extends DomainError {
  constructor(taxProfile: string) {
    super('untaxed_quote', 'The quote charges no tax: give a tax_exempt_reason or a taxed profile.', { field: 'tax_exempt_reason', tax_profile: taxProfile });
  }
}

/** 422 `deposit_not_payable`: the deposit is 0.00 once rounded, or more than the total. */
export class DepositNotPayableError extends DomainError {
  constructor(depositCents: number, totalCents: number) {
    super('deposit_not_payable', 'The deposit must be between 0.01 and the total.', {
      field: 'payment_deposit_value',
      deposit: centsToDollars(depositCents),
      total: centsToDollars(totalCents),
    });
  }
}
