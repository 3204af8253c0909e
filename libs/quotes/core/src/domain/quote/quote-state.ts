import type {
  PaymentDepositType,
  PaymentExecutionMode,
  PaymentPlanType,
  QuoteLanguage,
  QuoteStatus,
  SignaturePaymentOrder,
  TaxProfile,
} from '@leadflow/quotes-contracts';
import type { AccountId } from '@leadflow/shared-kernel';

export interface QuoteLine {
  description: string;
  /** Exact decimal text (`"2.5"`), at most 4 decimals. */
  quantity: string;
  /** Dollars as exact decimal text (`"2.375"`), at most 4 decimals; null for a line not priced yet. */
  unitPrice: string | null;
}

/** Everything stored about a quote (one row of `quotes.quotes`). Amounts in integer cents. */
export interface QuoteState {
  id: string;
  accountId: AccountId;
  quoteNumber: string;
  status: QuoteStatus;
  contactId: string | null;
  prospectName: string | null;
  prospectEmail: string | null;
  prospectPhone: string | null;
  prospectCompany: string | null;
  prospectAddress: string | null;
  language: QuoteLanguage;
  /** `YYYY-MM-DD` in {@link timezone}. */
  validUntil: string | null;
  /** The account's IANA time zone when the quote was created: the zone its dates are read in. */
  timezone: string;
  paymentTerms: string | null;
  lineItems: QuoteLine[];
  internalNotes: string;
  salesRepId: string | null;
  /** As given (null: the account's default applies). */
  taxProfileId: TaxProfile | null;
  /** The profile the totals were computed with. */
  taxProfile: TaxProfile;
  signaturePaymentOrder: SignaturePaymentOrder;
  taxExemptReason: string | null;
  subtotalCents: number;
  tpsCents: number;
  tvqCents: number;
  totalCents: number;
  amountPaidCents: number;
  paymentsCount: number;
  paymentPlanType: PaymentPlanType;
  paymentDepositType: PaymentDepositType | null;
  /** Hundredths: of a percent (`2550` = 25.5 %) for `percentage`, cents for `fixed`. */
  paymentDepositValue: number | null;
  paymentInstallmentsCount: number | null;
  paymentIntervalDays: number | null;
  paymentExecutionMode: PaymentExecutionMode;
  /** SHA-256 (hex) of the public page token, set on send. */
  publicTokenHash: string | null;
  sentAt: Date | null;
  viewedAt: Date | null;
  signedAt: Date | null;
  declinedAt: Date | null;
  cancelledAt: Date | null;
  expiredAt: Date | null;
  paidAt: Date | null;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One change of `quote_updated`: public field → previous and new value (amounts in cents as stored). */
export type QuoteChanges = Record<string, { previous: unknown; current: unknown }>;

/** What a lead action did. */
export interface LeadActionOutcome {
  changed: boolean;
  /** Cents recorded by `pay`. */
  paymentCents: number | null;
}

/** Closed statuses: nothing more happens to the quote. */
export const CLOSED: readonly QuoteStatus[] = ['declined', 'cancelled', 'expired'];
/** Signed statuses (`paid` is signed and paid in full). */
export const SIGNED: readonly QuoteStatus[] = ['signed', 'paid'];
/** Statuses in which the lead can still sign or decline. */
export const OPEN_TO_LEAD: readonly QuoteStatus[] = ['sent', 'viewed'];

/** True when `valid_until` is before `today` (both in the quote's zone). */
export function isPastValidity(state: Pick<QuoteState, 'validUntil'>, today: string): boolean {
  return state.validUntil !== null && state.validUntil < today;
}
