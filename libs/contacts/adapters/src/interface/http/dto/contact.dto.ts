import { IsBoolean, IsNumber, IsObject, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { Nullable } from '@leadflow/shared-platform';

/**
 * Bodies of `POST /v1/contacts` and `PATCH /v1/contacts/{id}` (public-api-v1 › Contacts). Types and
 * lengths are checked here (400 `validation_error`, reasons `invalid_type`, `too_long`, `unknown_field`);
 * formats, identities, amounts and custom fields by the domain. The type decorator is the first one
 * so a wrong type reports `invalid_type`.
 */
export class CreateContactDto {
  /** Not nullable on create (nothing to clear). */
  @IsString() @MaxLength(320) @IsOptional() email?: string;
  @IsString() @MaxLength(200) @Nullable() first_name?: string | null;
  @IsString() @MaxLength(200) @Nullable() last_name?: string | null;
  /** At most 50 characters (public-api-v1 › Limits). */
  @IsString() @MaxLength(50) @IsOptional() phone?: string;
  @IsString() @MaxLength(200) @Nullable() company?: string | null;
  /** CAD dollars, positive, at most two decimals. */
  @IsNumber({ allowNaN: false, allowInfinity: false }) @Nullable() deal_value?: number | null;
  /** Keyed by definition name or id. */
  @IsObject() @Nullable() custom_fields?: Record<string, unknown> | null;
  /** A System of the account (422 `system_not_found` otherwise). */
  @IsString() @MaxLength(64) @IsOptional() system_id?: string;
}

/** PATCH body: every member optional; null clears a nullable field. */
export class UpdateContactDto {
  @IsString() @MaxLength(320) @Nullable() email?: string | null;
  @IsString() @MaxLength(200) @Nullable() first_name?: string | null;
  @IsString() @MaxLength(200) @Nullable() last_name?: string | null;
  @IsString() @MaxLength(50) @Nullable() phone?: string | null;
  @IsString() @MaxLength(200) @Nullable() company?: string | null;
  @IsNumber({ allowNaN: false, allowInfinity: false }) @Nullable() deal_value?: number | null;
  /** Not nullable. */
  @IsBoolean() @ValidateIf((_, value) => value !== undefined) is_priority?: boolean;
  @IsString() @MaxLength(10_000) @Nullable() notes?: string | null;
  /** Merged with the stored values; null clears all. */
  @IsObject() @Nullable() custom_fields?: Record<string, unknown> | null;
}
