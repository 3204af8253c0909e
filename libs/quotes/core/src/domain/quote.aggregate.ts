import { AccountId, divideHalfUp, FieldViolation, normalizeEmail, scaledToText, toScaled, ValidationFailedError } from '@leadflow/shared-kernel';
import {
  LeadAction,
  PAYMENT_DEPOSIT_TYPES,
  PAYMENT_EXECUTION_MODES,
  PAYMENT_PLAN_TYPES,
  PaymentDepositType,
  PaymentExecutionMode,
  PaymentPlanType,
  QUOTE_LANGUAGES,
  QuoteLanguage,
  QuoteStatus,
  SIGNATURE_PAYMENT_ORDERS,
  SignaturePaymentOrder,
  TAX_PROFILES,
  TaxProfile,
} from '@leadflow/quotes-contracts';
import { isCalendarDate } from './dates';
import {
  AlreadySentError,
  AlreadySignedError,
  DepositNotPayableError,
  InvalidProspectEmailError,
  NoFieldsError,
  NoProspectEmailError,
  PaymentPlanLockedError,
  QuoteCancelledError,
  QuoteStatusChangedError,
  SignaturePaymentOrderLockedError,
  StatusLockedError,
  UnpricedLinesError,
  UntaxedQuoteError,
} from './quotes.errors';
import { computeTotals, lineAmountCents, QUANTITY_SCALE, UNIT_PRICE_SCALE } from './taxes';

/** Limits of the quote fields (400 `validation_error` beyond them). */
export const QUOTE_LIMITS = {
  lineItems: 200,
  description: 1000,
  /** Quantity: more than 0, at most this, at most 4 decimals. */
  maxQuantity: 100_000,
  /** Unit price in dollars: 0 or more, at most this, at most 4 decimals (sub-cent prices such as 2.375). */
  maxUnitPrice: 1_000_000,
  taxExemptReason: 200,
  maxFixedDeposit: 100_000_000,
  installments: { min: 2, max: 60 },
  intervalDays: { min: 1, max: 365 },
} as const;

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

/** A line item as a request gives it (types already checked). */
export interface LineItemInput {
  description?: string | null;
  quantity?: number | null;
  unitPrice?: number | null;
}

/** Fields `POST /v1/quotes` accepts; undefined = absent (the defaults apply). */
export interface NewQuoteInput {
  contactId?: string | null;
  prospectName?: string | null;
  prospectEmail?: string | null;
  prospectPhone?: string | null;
  prospectCompany?: string | null;
  prospectAddress?: string | null;
  language?: string;
  validUntil?: string | null;
  paymentTerms?: string | null;
  lineItems?: LineItemInput[];
  internalNotes?: string | null;
  salesRepId?: string | null;
  taxProfileId?: string | null;
  signaturePaymentOrder?: string;
  taxExemptReason?: string | null;
}

/** Fields `PATCH /v1/quotes/{id}` accepts; undefined = absent, null = clear. */
export interface QuotePatch {
  prospectName?: string | null;
  prospectEmail?: string | null;
  prospectPhone?: string | null;
  prospectCompany?: string | null;
  prospectAddress?: string | null;
  validUntil?: string | null;
  paymentTerms?: string | null;
  internalNotes?: string | null;
  salesRepId?: string | null;
  taxProfileId?: string | null;
  paymentPlanType?: string;
  paymentDepositType?: string | null;
  paymentDepositValue?: number | null;
  paymentInstallmentsCount?: number | null;
  paymentIntervalDays?: number | null;
  paymentExecutionMode?: string;
  signaturePaymentOrder?: string;
  taxExemptReason?: string | null;
  status?: string;
}

/** Public name of each PATCH field. */
export const PATCH_FIELDS: Record<keyof QuotePatch, string> = {
  prospectName: 'prospect_name',
  prospectEmail: 'prospect_email',
  prospectPhone: 'prospect_phone',
  prospectCompany: 'prospect_company',
  prospectAddress: 'prospect_address',
  validUntil: 'valid_until',
  paymentTerms: 'payment_terms',
  internalNotes: 'internal_notes',
  salesRepId: 'sales_rep_id',
  taxProfileId: 'tax_profile_id',
  paymentPlanType: 'payment_plan_type',
  paymentDepositType: 'payment_deposit_type',
  paymentDepositValue: 'payment_deposit_value',
  paymentInstallmentsCount: 'payment_installments_count',
  paymentIntervalDays: 'payment_interval_days',
  paymentExecutionMode: 'payment_execution_mode',
  signaturePaymentOrder: 'signature_payment_order',
  taxExemptReason: 'tax_exempt_reason',
  status: 'status',
};

const PLAN_FIELDS = [
  'paymentPlanType',
  'paymentDepositType',
  'paymentDepositValue',
  'paymentInstallmentsCount',
  'paymentIntervalDays',
  'paymentExecutionMode',
] as const satisfies readonly (keyof QuotePatch)[];

/** Statuses `PATCH status` accepts. */
export const PATCHABLE_STATUSES = ['declined', 'cancelled'] as const;

/** Account settings a new quote starts from (`quote_defaults`). */
export interface QuoteDefaults {
  validityDays: number;
  paymentTerms: string | null;
  signaturePaymentOrder: SignaturePaymentOrder;
  taxProfile: TaxProfile;
}

/** What the prospect fields fall back to when omitted (the linked contact). */
export interface ProspectSource {
  name: string | null;
  email: string | null;
  phone: string | null;
  company: string | null;
}

export interface NewQuoteContext {
  id: string;
  accountId: AccountId;
  quoteNumber: string;
  now: Date;
  /** `valid_until` when omitted (today + validity days in the account's zone), computed by the caller. */
  defaultValidUntil: string;
  timezone: string;
  defaults: QuoteDefaults;
  contact: (ProspectSource & { id: string }) | null;
}

/** One change of `quote_updated`: public field → previous and new value (amounts in cents as stored). */
export type QuoteChanges = Record<string, { previous: unknown; current: unknown }>;

/** What a lead action did. */
export interface LeadActionOutcome {
  changed: boolean;
  /** Cents recorded by `pay`. */
  paymentCents: number | null;
}

const CLOSED: readonly QuoteStatus[] = ['declined', 'cancelled', 'expired'];
const SIGNED: readonly QuoteStatus[] = ['signed', 'paid'];
const OPEN_TO_LEAD: readonly QuoteStatus[] = ['sent', 'viewed'];

function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

/** Trims; blank reads as null; undefined stays undefined. */
function text(raw: string | null | undefined): string | null | undefined {
  if (raw === undefined || raw === null) return raw;
  const trimmed = raw.trim();
  return trimmed.length === 0 ? null : trimmed;
}

function checkEnum(violations: FieldViolation[], field: string, values: readonly string[], value: unknown, nullable: boolean): void {
  if (value === undefined || (nullable && value === null)) return;
  if (!isOneOf(values, value)) violations.push({ field, reason: 'invalid_value', message: `${field} must be one of ${values.join(', ')}.` });
}

function checkDate(violations: FieldViolation[], field: string, value: string | null | undefined): void {
  if (value === undefined || value === null) return;
  if (!isCalendarDate(value)) violations.push({ field, reason: 'invalid_format', message: `${field} must be a date YYYY-MM-DD.` });
}

/** `tax_exempt_reason`: null, or 1 to 200 characters once trimmed (PATCH rule 5). */
function checkExemptReason(violations: FieldViolation[], value: string | null | undefined): void {
  if (value === undefined || value === null) return;
  const length = value.trim().length;
  if (length === 0) violations.push({ field: 'tax_exempt_reason', reason: 'too_short', message: 'tax_exempt_reason must be 1 to 200 characters, or null.' });
  else if (length > QUOTE_LIMITS.taxExemptReason) {
    violations.push({ field: 'tax_exempt_reason', reason: 'too_long', message: 'tax_exempt_reason must be 1 to 200 characters, or null.' });
  }
}

/** Validates and converts line items (`line_items[i].description|quantity|unit_price`). */
function readLines(items: readonly LineItemInput[], violations: FieldViolation[]): QuoteLine[] {
  if (items.length > QUOTE_LIMITS.lineItems) {
    violations.push({ field: 'line_items', reason: 'too_many', message: `At most ${QUOTE_LIMITS.lineItems} line items.` });
    return [];
  }
  return items.map((item, index) => {
    const at = `line_items[${index}]`;
    const description = text(item.description) ?? null;
    if (description === null) violations.push({ field: `${at}.description`, reason: 'required', message: 'Each line item needs a description.' });
    else if (description.length > QUOTE_LIMITS.description) {
      violations.push({ field: `${at}.description`, reason: 'too_long', message: `description must be at most ${QUOTE_LIMITS.description} characters.` });
    }
    let quantity = '1';
    if (item.quantity !== undefined && item.quantity !== null) {
      const units = toScaled(item.quantity, QUANTITY_SCALE);
      if (units === null || units === 0n || item.quantity > QUOTE_LIMITS.maxQuantity) {
        const decimals = units === null && Number.isFinite(item.quantity) && item.quantity > 0 && item.quantity <= QUOTE_LIMITS.maxQuantity;
        violations.push({
          field: `${at}.quantity`,
          reason: decimals ? 'invalid_value' : 'out_of_range',
          message: `quantity must be more than 0 and at most ${QUOTE_LIMITS.maxQuantity}, with at most 4 decimals.`,
        });
      } else {
        quantity = scaledToText(units, QUANTITY_SCALE);
      }
    }
    let unitPrice: string | null = null;
    if (item.unitPrice !== undefined && item.unitPrice !== null) {
      const units = toScaled(item.unitPrice, UNIT_PRICE_SCALE);
      if (units === null || item.unitPrice > QUOTE_LIMITS.maxUnitPrice) {
        const decimals = units === null && Number.isFinite(item.unitPrice) && item.unitPrice >= 0 && item.unitPrice <= QUOTE_LIMITS.maxUnitPrice;
        violations.push({
          field: `${at}.unit_price`,
          reason: decimals ? 'invalid_value' : 'out_of_range',
          message: `unit_price must be from 0 to ${QUOTE_LIMITS.maxUnitPrice} dollars, with at most 4 decimals.`,
        });
      } else {
        unitPrice = scaledToText(units, UNIT_PRICE_SCALE);
      }
    }
    return { description: description ?? '', quantity, unitPrice };
  });
}

/**
 * The quote aggregate: creation with the account defaults, the PATCH rules, sending preconditions,
 * the lead's actions, expiry and archiving (public-api-v1 › Quote, States › Quote, Endpoints › Quotes;
 * operator-api › Quote taxes, Quote numbers). Amounts are recomputed here, never taken from a request.
 */
export class Quote {
  private constructor(private state: QuoteState) {}

  static restore(state: QuoteState): Quote {
    return new Quote({ ...state, lineItems: state.lineItems.map((line) => ({ ...line })) });
  }

  /** Value checks of a create body (400 `validation_error`, every violation listed). */
  static checkNew(input: NewQuoteInput): void {
    const violations: FieldViolation[] = [];
    Quote.readNew(input, violations);
    if (violations.length > 0) throw new ValidationFailedError(violations);
  }

  private static readNew(input: NewQuoteInput, violations: FieldViolation[]): QuoteLine[] {
    checkEnum(violations, 'language', QUOTE_LANGUAGES, input.language, false);
    checkEnum(violations, 'signature_payment_order', SIGNATURE_PAYMENT_ORDERS, input.signaturePaymentOrder, false);
    checkEnum(violations, 'tax_profile_id', TAX_PROFILES, input.taxProfileId, true);
    checkDate(violations, 'valid_until', input.validUntil);
    checkExemptReason(violations, input.taxExemptReason);
    return readLines(input.lineItems ?? [], violations);
  }

  /**
   * A new draft (POST /v1/quotes): the number and the account defaults assigned (validity, payment
   * terms, signature/payment order, tax profile), omitted prospect fields read from the contact,
   * totals computed. Throws 400 `validation_error` like {@link checkNew}.
   */
  static create(input: NewQuoteInput, context: NewQuoteContext): Quote {
    const violations: FieldViolation[] = [];
    const lineItems = Quote.readNew(input, violations);
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
    const present = (Object.keys(PATCH_FIELDS) as (keyof QuotePatch)[]).filter((key) => patch[key] !== undefined);
    if (present.length === 0) throw new NoFieldsError();
    const violations: FieldViolation[] = [];
    if (patch.status !== undefined && present.length > 1) {
      violations.push({ field: 'status', reason: 'exclusive_field', message: 'status must be sent alone.' });
      for (const key of present.filter((key) => key !== 'status')) {
        violations.push({ field: PATCH_FIELDS[key], reason: 'exclusive_field', message: 'status must be sent alone.' });
      }
      throw new ValidationFailedError(violations);
    }
    checkEnum(violations, 'status', PATCHABLE_STATUSES, patch.status, false);
    checkEnum(violations, 'signature_payment_order', SIGNATURE_PAYMENT_ORDERS, patch.signaturePaymentOrder, false);
    checkEnum(violations, 'tax_profile_id', TAX_PROFILES, patch.taxProfileId, true);
    checkEnum(violations, 'payment_plan_type', PAYMENT_PLAN_TYPES, patch.paymentPlanType, false);
    checkEnum(violations, 'payment_deposit_type', PAYMENT_DEPOSIT_TYPES, patch.paymentDepositType, true);
    checkEnum(violations, 'payment_execution_mode', PAYMENT_EXECUTION_MODES, patch.paymentExecutionMode, false);
    checkDate(violations, 'valid_until', patch.validUntil);
    checkExemptReason(violations, patch.taxExemptReason);
    const { installments, intervalDays } = QUOTE_LIMITS;
    if (typeof patch.paymentInstallmentsCount === 'number' && (patch.paymentInstallmentsCount < installments.min || patch.paymentInstallmentsCount > installments.max)) {
      violations.push({ field: 'payment_installments_count', reason: 'out_of_range', message: `From ${installments.min} to ${installments.max}.` });
    }
    if (typeof patch.paymentIntervalDays === 'number' && (patch.paymentIntervalDays < intervalDays.min || patch.paymentIntervalDays > intervalDays.max)) {
      violations.push({ field: 'payment_interval_days', reason: 'out_of_range', message: `From ${intervalDays.min} to ${intervalDays.max}.` });
    }
    if (typeof patch.paymentDepositValue === 'number' && toScaled(patch.paymentDepositValue, 2) === null) {
      violations.push({ field: 'payment_deposit_value', reason: 'invalid_value', message: 'payment_deposit_value must be positive, with at most 2 decimals.' });
    }
    if (violations.length > 0) throw new ValidationFailedError(violations);
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
    const before = this.publicFields();
    if (patch.status !== undefined) {
      this.close(patch.status as (typeof PATCHABLE_STATUSES)[number], now);
      return this.diff(before);
    }
    const planFields = PLAN_FIELDS.filter((key) => patch[key] !== undefined);
    if (planFields.length > 0 && this.state.amountPaidCents > 0) throw new PaymentPlanLockedError(planFields.map((key) => PATCH_FIELDS[key]));
    if (patch.signaturePaymentOrder !== undefined && this.state.status !== 'draft') {
      throw new SignaturePaymentOrderLockedError(this.state.status);
    }
    const plan = this.nextPlan(patch);
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

  /** The payment plan after a PATCH (a new plan type starts from empty plan fields), checked for consistency. */
  private nextPlan(patch: QuotePatch): Pick<
    QuoteState,
    'paymentPlanType' | 'paymentDepositType' | 'paymentDepositValue' | 'paymentInstallmentsCount' | 'paymentIntervalDays' | 'paymentExecutionMode'
  > {
    const type = (patch.paymentPlanType ?? this.state.paymentPlanType) as PaymentPlanType;
    const fresh = patch.paymentPlanType !== undefined && patch.paymentPlanType !== this.state.paymentPlanType;
    const keep = <T>(given: T | undefined, current: T | null): T | null => (given !== undefined ? given : fresh ? null : current);
    const depositType = keep(patch.paymentDepositType as PaymentDepositType | null | undefined, this.state.paymentDepositType);
    const depositValue =
      patch.paymentDepositValue !== undefined
        ? patch.paymentDepositValue === null
          ? null
          : Number(toScaled(patch.paymentDepositValue, 2))
        : fresh
          ? null
          : this.state.paymentDepositValue;
    const installmentsCount = keep(patch.paymentInstallmentsCount, this.state.paymentInstallmentsCount);
    const intervalDays = keep(patch.paymentIntervalDays, this.state.paymentIntervalDays);
    const violations: FieldViolation[] = [];
    const mustBeNull = (field: string, value: unknown, why: string) => {
      if (value !== null) violations.push({ field, reason: 'invalid_value', message: `${field} must be null ${why}.` });
    };
    const required = (field: string, value: unknown) => {
      if (value === null) violations.push({ field, reason: 'required', message: `${field} is required by payment_plan_type ${type}.` });
    };
    if (type === 'full' || type === 'installments') {
      mustBeNull('payment_deposit_type', depositType, `with payment_plan_type ${type}`);
      mustBeNull('payment_deposit_value', depositValue, `with payment_plan_type ${type}`);
    }
    if (type === 'full' || type === 'deposit') {
      mustBeNull('payment_installments_count', installmentsCount, `with payment_plan_type ${type}`);
      mustBeNull('payment_interval_days', intervalDays, `with payment_plan_type ${type}`);
    }
    if (type === 'deposit') {
      required('payment_deposit_type', depositType);
      required('payment_deposit_value', depositValue);
      if (depositValue !== null && depositValue <= 0) {
        violations.push({ field: 'payment_deposit_value', reason: 'out_of_range', message: 'payment_deposit_value must be more than 0.' });
      } else if (depositType === 'percentage' && depositValue !== null && depositValue >= 10_000) {
        violations.push({ field: 'payment_deposit_value', reason: 'out_of_range', message: 'A percentage deposit is more than 0 and less than 100.' });
      } else if (depositType === 'fixed' && depositValue !== null && depositValue > QUOTE_LIMITS.maxFixedDeposit * 100) {
        violations.push({ field: 'payment_deposit_value', reason: 'out_of_range', message: `A fixed deposit is at most ${QUOTE_LIMITS.maxFixedDeposit} dollars.` });
      }
    }
    if (type === 'installments') {
      required('payment_installments_count', installmentsCount);
      required('payment_interval_days', intervalDays);
    }
    if (violations.length > 0) throw new ValidationFailedError(violations, 'The payment plan fields are inconsistent.');
    return {
      paymentPlanType: type,
      paymentDepositType: depositType,
      paymentDepositValue: depositValue,
      paymentInstallmentsCount: installmentsCount,
      paymentIntervalDays: intervalDays,
      paymentExecutionMode: (patch.paymentExecutionMode ?? this.state.paymentExecutionMode) as PaymentExecutionMode,
    };
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
    return this.state.validUntil !== null && this.state.validUntil < today;
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
    const { paymentDepositType, paymentDepositValue, totalCents } = this.state;
    if (paymentDepositValue === null) return 0;
    if (paymentDepositType === 'percentage') return Number(divideHalfUp(BigInt(totalCents) * BigInt(paymentDepositValue), 10_000n));
    return paymentDepositValue;
  }

  /** The next payment due by the plan: the deposit then the balance, equal instalments with the last absorbing the rounding, or the total. */
  nextPaymentCents(): number {
    const { totalCents, amountPaidCents, paymentsCount, paymentPlanType, paymentInstallmentsCount } = this.state;
    const remaining = totalCents - amountPaidCents;
    if (paymentPlanType === 'deposit' && paymentsCount === 0) return Math.min(this.depositCents(), remaining);
    if (paymentPlanType === 'installments' && paymentInstallmentsCount !== null && paymentsCount < paymentInstallmentsCount - 1) {
      return Math.min(Math.floor(totalCents / paymentInstallmentsCount), remaining);
    }
    return remaining;
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
  applyLeadAction(action: LeadAction, now: Date, today: string): LeadActionOutcome {
    const status = this.state.status;
    const locked = (reason?: string) => new StatusLockedError(status, { action, ...(reason ? { reason } : {}) });
    if (status === 'cancelled') throw new QuoteCancelledError();
    switch (action) {
      case 'view': {
        if (status === 'draft') throw locked('not_sent');
        if (status !== 'sent') return { changed: false, paymentCents: null };
        this.state = { ...this.state, status: 'viewed', viewedAt: now, updatedAt: now };
        return { changed: true, paymentCents: null };
      }
      case 'sign': {
        if (SIGNED.includes(status)) throw new AlreadySignedError(status);
        if (!OPEN_TO_LEAD.includes(status)) throw locked();
        if (this.isPastValidity(today)) throw locked('expired');
        if (this.state.signaturePaymentOrder === 'payment_first' && this.state.amountPaidCents === 0) throw locked('payment_required');
        const paidInFull = this.state.totalCents > 0 && this.state.amountPaidCents >= this.state.totalCents;
        this.state = { ...this.state, status: paidInFull ? 'paid' : 'signed', signedAt: now, ...(paidInFull ? { paidAt: now } : {}), updatedAt: now };
        return { changed: true, paymentCents: null };
      }
      case 'decline': {
        if (SIGNED.includes(status)) throw new AlreadySignedError(status);
        if (!OPEN_TO_LEAD.includes(status)) throw locked();
        if (this.state.amountPaidCents > 0) throw locked('payment_collected');
        this.state = { ...this.state, status: 'declined', declinedAt: now, updatedAt: now };
        return { changed: true, paymentCents: null };
      }
      case 'pay': {
        const order = this.state.signaturePaymentOrder;
        if (order === 'signature_only') throw locked('no_online_payment');
        const allowed: readonly QuoteStatus[] = order === 'payment_first' ? ['sent', 'viewed', 'signed'] : ['signed'];
        if (!allowed.includes(status)) throw locked(order === 'signature_first' && OPEN_TO_LEAD.includes(status) ? 'signature_required' : undefined);
        if (status !== 'signed' && this.isPastValidity(today)) throw locked('expired');
        const amount = this.nextPaymentCents();
        if (amount <= 0) throw locked('paid_in_full');
        const amountPaidCents = this.state.amountPaidCents + amount;
        const paid = status === 'signed' && amountPaidCents >= this.state.totalCents;
        this.state = {
          ...this.state,
          amountPaidCents,
          paymentsCount: this.state.paymentsCount + 1,
          ...(paid ? { status: 'paid' as const, paidAt: now } : {}),
          updatedAt: now,
        };
        return { changed: true, paymentCents: amount };
      }
    }
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

  private publicFields(): Record<string, unknown> {
    const s = this.state;
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

  private diff(before: Record<string, unknown>): QuoteChanges {
    const after = this.publicFields();
    const changes: QuoteChanges = {};
    for (const [field, previous] of Object.entries(before)) {
      if (previous !== after[field]) changes[field] = { previous, current: after[field] };
    }
    return changes;
  }
}
