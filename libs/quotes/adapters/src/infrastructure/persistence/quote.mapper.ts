import { asAccountId, scaledToText } from '@leadflow/shared-kernel';
import { QuoteLine, QuoteState } from '@leadflow/quotes-core';
import type {
  PaymentDepositType,
  PaymentExecutionMode,
  PaymentPlanType,
  QuoteLanguage,
  QuoteStatus,
  SignaturePaymentOrder,
  TaxProfile,
} from '@leadflow/quotes-contracts';
import { QuoteRecord, StoredLineItem } from './quotes.records';

/** A stored line; the legacy `unit_price_cents` (whole cents) reads as the same price in dollars. */
function toLine(line: StoredLineItem): QuoteLine {
  const legacy = line.unit_price_cents;
  const unitPrice = line.unit_price !== undefined ? line.unit_price : legacy === undefined || legacy === null ? null : scaledToText(BigInt(legacy), 2);
  return { description: line.description, quantity: line.quantity, unitPrice };
}

/** Domain state ↔ `quotes.quotes` row (persistence only). */
export const QuoteMapper = {
  toState(row: QuoteRecord): QuoteState {
    return {
      id: row.id,
      accountId: asAccountId(row.accountId),
      quoteNumber: row.quoteNumber,
      status: row.status as QuoteStatus,
      contactId: row.contactId,
      prospectName: row.prospectName,
      prospectEmail: row.prospectEmail,
      prospectPhone: row.prospectPhone,
      prospectCompany: row.prospectCompany,
      prospectAddress: row.prospectAddress,
      language: row.language as QuoteLanguage,
      validUntil: row.validUntil,
      timezone: row.timezone,
      paymentTerms: row.paymentTerms,
      lineItems: row.lineItems.map(toLine),
      internalNotes: row.internalNotes,
      salesRepId: row.salesRepId,
      taxProfileId: row.taxProfileId as TaxProfile | null,
      taxProfile: row.taxProfile as TaxProfile,
      signaturePaymentOrder: row.signaturePaymentOrder as SignaturePaymentOrder,
      taxExemptReason: row.taxExemptReason,
      subtotalCents: row.subtotalCents,
      tpsCents: row.tpsCents,
      tvqCents: row.tvqCents,
      totalCents: row.totalCents,
      amountPaidCents: row.amountPaidCents,
      paymentsCount: row.paymentsCount,
      paymentPlanType: row.paymentPlanType as PaymentPlanType,
      paymentDepositType: row.paymentDepositType as PaymentDepositType | null,
      paymentDepositValue: row.paymentDepositValue,
      paymentInstallmentsCount: row.paymentInstallmentsCount,
      paymentIntervalDays: row.paymentIntervalDays,
      paymentExecutionMode: row.paymentExecutionMode as PaymentExecutionMode,
      publicTokenHash: row.publicTokenHash,
      sentAt: row.sentAt,
      viewedAt: row.viewedAt,
      signedAt: row.signedAt,
      declinedAt: row.declinedAt,
      cancelledAt: row.cancelledAt,
      expiredAt: row.expiredAt,
      paidAt: row.paidAt,
      archivedAt: row.archivedAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  },

  toRecord(state: QuoteState): QuoteRecord {
    const { lineItems, accountId, ...rest } = state;
    return Object.assign(new QuoteRecord(), {
      ...rest,
      accountId: accountId as string,
      lineItems: lineItems.map((line): StoredLineItem => ({ description: line.description, quantity: line.quantity, unit_price: line.unitPrice })),
    });
  },
};
