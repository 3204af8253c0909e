import { FieldViolation, scaledToText, toScaled, ValidationFailedError } from '@leadflow/shared-kernel';
import {
  PAYMENT_DEPOSIT_TYPES,
  PAYMENT_EXECUTION_MODES,
  PAYMENT_PLAN_TYPES,
  QUOTE_LANGUAGES,
  SIGNATURE_PAYMENT_ORDERS,
  SignaturePaymentOrder,
  TAX_PROFILES,
  TaxProfile,
} from '@leadflow/quotes-contracts';
import type { AccountId } from '@leadflow/shared-kernel';
import { isCalendarDate } from '../dates';
import { NoFieldsError } from '../quotes.errors';
import { QUANTITY_SCALE, UNIT_PRICE_SCALE } from '../taxes';
import type { QuoteLine } from './quote-state';

/*
 * The quote's input rules: the request shapes of create and PATCH, their public (wire) names, and the
 * value checks that answer 400 `validation_error` / `no_fields` before any quote is read.
 */

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

/** The payment plan fields of a PATCH (locked once a payment is collected). */
export const PLAN_FIELDS = [
  'paymentPlanType',
  'paymentDepositType',
  'paymentDepositValue',
  'paymentInstallmentsCount',
  'paymentIntervalDays',
  'paymentExecutionMode',
] as const satisfies readonly (keyof QuotePatch)[];

function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

/** Trims; blank reads as null; undefined stays undefined. */
export function text(raw: string | null | undefined): string | null | undefined {
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

/** Value checks of a create body, violations appended; returns the converted line items. */
export function readNewQuote(input: NewQuoteInput, violations: FieldViolation[]): QuoteLine[] {
  checkEnum(violations, 'language', QUOTE_LANGUAGES, input.language, false);
  checkEnum(violations, 'signature_payment_order', SIGNATURE_PAYMENT_ORDERS, input.signaturePaymentOrder, false);
  checkEnum(violations, 'tax_profile_id', TAX_PROFILES, input.taxProfileId, true);
  checkDate(violations, 'valid_until', input.validUntil);
  checkExemptReason(violations, input.taxExemptReason);
  return readLines(input.lineItems ?? [], violations);
}

/**
 * Request-level checks of a PATCH body, before the quote is read: rule 1 (400 `no_fields`), rule 2
 * (`status` alone: 400 `validation_error` reason `exclusive_field`; only `declined` or `cancelled`),
 * values (enums, dates, `tax_exempt_reason` length, plan numbers).
 */
export function checkQuotePatch(patch: QuotePatch): void {
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
