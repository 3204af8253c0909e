import { Column, Entity, PrimaryColumn, ValueTransformer } from 'typeorm';

/** bigint cents read back as numbers (every amount stays far below 2^53). */
const CENTS: ValueTransformer = {
  to: (value: number | null) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/**
 * A line item as stored: the quantity and the unit price (dollars, null: not priced) as exact decimal
 * text with at most 4 decimals. `unit_price_cents` is the shape written before sub-cent prices (migration
 * QuotesSubCentUnitPrices rewrites it; still read for a row an older process wrote during a deploy).
 */
export interface StoredLineItem {
  description: string;
  quantity: string;
  unit_price?: string | null;
  unit_price_cents?: number | null;
}

/** `quotes.quotes` (see the init migration). */
@Entity({ schema: 'quotes', name: 'quotes' })
export class QuoteRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('text') quoteNumber: string;
  @Column('text') status: string;
  @Column({ type: 'uuid', nullable: true }) contactId: string | null;
  @Column({ type: 'text', nullable: true }) prospectName: string | null;
  @Column({ type: 'text', nullable: true }) prospectEmail: string | null;
  @Column({ type: 'text', nullable: true }) prospectPhone: string | null;
  @Column({ type: 'text', nullable: true }) prospectCompany: string | null;
  @Column({ type: 'text', nullable: true }) prospectAddress: string | null;
  @Column('text') language: string;
  /** `YYYY-MM-DD` (a PostgreSQL `date`, read as a string). */
  @Column({ type: 'date', nullable: true }) validUntil: string | null;
  @Column('text') timezone: string;
  @Column({ type: 'text', nullable: true }) paymentTerms: string | null;
  @Column('jsonb') lineItems: StoredLineItem[];
  @Column('text') internalNotes: string;
  @Column({ type: 'uuid', nullable: true }) salesRepId: string | null;
  @Column({ type: 'text', nullable: true }) taxProfileId: string | null;
  @Column('text') taxProfile: string;
  @Column('text') signaturePaymentOrder: string;
  @Column({ type: 'text', nullable: true }) taxExemptReason: string | null;
  @Column({ type: 'bigint', transformer: CENTS }) subtotalCents: number;
  @Column({ type: 'bigint', transformer: CENTS }) tpsCents: number;
  @Column({ type: 'bigint', transformer: CENTS }) tvqCents: number;
  @Column({ type: 'bigint', transformer: CENTS }) totalCents: number;
  @Column({ type: 'bigint', transformer: CENTS }) amountPaidCents: number;
  @Column('int') paymentsCount: number;
  @Column('text') paymentPlanType: string;
  @Column({ type: 'text', nullable: true }) paymentDepositType: string | null;
  @Column({ type: 'bigint', nullable: true, transformer: CENTS }) paymentDepositValue: number | null;
  @Column({ type: 'int', nullable: true }) paymentInstallmentsCount: number | null;
  @Column({ type: 'int', nullable: true }) paymentIntervalDays: number | null;
  @Column('text') paymentExecutionMode: string;
  @Column({ type: 'text', nullable: true }) publicTokenHash: string | null;
  @Column({ type: 'timestamptz', nullable: true }) sentAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) viewedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) signedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) declinedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) cancelledAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) expiredAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) paidAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) archivedAt: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}

/** `quotes.quote_payments`. */
@Entity({ schema: 'quotes', name: 'quote_payments' })
export class QuotePaymentRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('uuid') quoteId: string;
  @Column({ type: 'bigint', transformer: CENTS }) amountCents: number;
  @Column('timestamptz') recordedAt: Date;
}

export const QUOTES_RECORDS = [QuoteRecord, QuotePaymentRecord];
