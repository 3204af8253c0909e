import { Type } from 'class-transformer';
import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, Equals, IsArray, IsInt, IsNumber, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { Nullable } from '@leadflow/shared-platform';

const present = (_: object, value: unknown) => value !== undefined;
const FINITE = { allowNaN: false, allowInfinity: false };

/** A member the service sets (`quote_number`, amounts): sending it gives 400 `validation_error` reason `read_only`. */
const ReadOnly = () =>
  applyDecorators(ValidateIf(present), Equals(undefined, { message: '$property is set by the service and cannot be written.', context: { reason: 'read_only' } }));

/**
 * A line item: `description` (1 to 1000 characters), `quantity` (more than 0, at most 100000, 4 decimals;
 * default 1), `unit_price` (CAD dollars, 0 to 1000000, 4 decimals such as 2.375; null or absent: not priced yet).
 * Types here; values by the domain (reasons `required`, `too_long`, `out_of_range`, `invalid_value`).
 */
export class LineItemDto {
  @IsString() @MaxLength(5000) @Nullable() description?: string | null;
  @IsNumber(FINITE) @Nullable() quantity?: number | null;
  @IsNumber(FINITE) @Nullable() unit_price?: number | null;
}

/**
 * Body of `POST /v1/quotes` (public-api-v1 › Endpoints › Quotes): every member optional. Types and
 * lengths are checked here (400 `validation_error`, reasons `invalid_type`, `too_long`, `unknown_field`,
 * `read_only`); value sets, dates and amounts by the domain; `contact_id` and `sales_rep_id` against the account.
 */
export class CreateQuoteDto {
  @ReadOnly() quote_number?: unknown;
  @ReadOnly() status?: unknown;
  @ReadOnly() subtotal?: unknown;
  @ReadOnly() tps_amount?: unknown;
  @ReadOnly() tvq_amount?: unknown;
  @ReadOnly() total?: unknown;
  @IsString() @MaxLength(64) @Nullable() contact_id?: string | null;
  @IsString() @MaxLength(200) @Nullable() prospect_name?: string | null;
  @IsString() @MaxLength(320) @Nullable() prospect_email?: string | null;
  @IsString() @MaxLength(50) @Nullable() prospect_phone?: string | null;
  @IsString() @MaxLength(200) @Nullable() prospect_company?: string | null;
  @IsString() @MaxLength(1000) @Nullable() prospect_address?: string | null;
  /** Not nullable. */
  @IsString() @MaxLength(10) @ValidateIf(present) language?: string;
  @IsString() @MaxLength(10) @Nullable() valid_until?: string | null;
  @IsString() @MaxLength(2000) @Nullable() payment_terms?: string | null;
  /** Not nullable. */
  @IsArray() @ArrayMaxSize(200) @ValidateNested({ each: true }) @Type(() => LineItemDto) @ValidateIf(present) line_items?: LineItemDto[];
  @IsString() @MaxLength(10_000) @Nullable() internal_notes?: string | null;
  @IsString() @MaxLength(64) @Nullable() sales_rep_id?: string | null;
  @IsString() @MaxLength(50) @Nullable() tax_profile_id?: string | null;
  /** Not nullable. */
  @IsString() @MaxLength(50) @ValidateIf(present) signature_payment_order?: string;
  @IsString() @MaxLength(1000) @Nullable() tax_exempt_reason?: string | null;
}

/** Body of `PATCH /v1/quotes/{id}`: undefined = absent, null = clear (nullable members). */
export class UpdateQuoteDto {
  @ReadOnly() quote_number?: unknown;
  @ReadOnly() subtotal?: unknown;
  @ReadOnly() tps_amount?: unknown;
  @ReadOnly() tvq_amount?: unknown;
  @ReadOnly() total?: unknown;
  /** Amounts are not editable (rule 1): the lines are written with the quote. */
  @ReadOnly() line_items?: unknown;
  @IsString() @MaxLength(200) @Nullable() prospect_name?: string | null;
  @IsString() @MaxLength(320) @Nullable() prospect_email?: string | null;
  @IsString() @MaxLength(50) @Nullable() prospect_phone?: string | null;
  @IsString() @MaxLength(200) @Nullable() prospect_company?: string | null;
  @IsString() @MaxLength(1000) @Nullable() prospect_address?: string | null;
  @IsString() @MaxLength(10) @Nullable() valid_until?: string | null;
  @IsString() @MaxLength(2000) @Nullable() payment_terms?: string | null;
  @IsString() @MaxLength(10_000) @Nullable() internal_notes?: string | null;
  @IsString() @MaxLength(64) @Nullable() sales_rep_id?: string | null;
  @IsString() @MaxLength(50) @Nullable() tax_profile_id?: string | null;
  /** Not nullable. */
  @IsString() @MaxLength(50) @ValidateIf(present) payment_plan_type?: string;
  @IsString() @MaxLength(50) @Nullable() payment_deposit_type?: string | null;
  @IsNumber(FINITE) @Nullable() payment_deposit_value?: number | null;
  @IsInt() @Nullable() payment_installments_count?: number | null;
  @IsInt() @Nullable() payment_interval_days?: number | null;
  /** Not nullable. */
  @IsString() @MaxLength(50) @ValidateIf(present) payment_execution_mode?: string;
  /** Not nullable. */
  @IsString() @MaxLength(50) @ValidateIf(present) signature_payment_order?: string;
  @IsString() @MaxLength(1000) @Nullable() tax_exempt_reason?: string | null;
  /** `declined` or `cancelled`, alone. Not nullable. */
  @IsString() @MaxLength(50) @ValidateIf(present) status?: string;
}
