import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsObject, IsOptional, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { Nullable } from '@leadflow/shared-platform';

/** `contact` of POST /v1/events: at least one of external_id, email, phone (checked by the handler). */
export class CustomEventContactDto {
  @IsString() @Length(1, 255) @Nullable() external_id?: string | null;
  @IsString() @MaxLength(100) @Nullable() external_source?: string | null;
  @IsString() @MaxLength(320) @Nullable() email?: string | null;
  /** At most 50 characters (like POST /v1/contacts). */
  @IsString() @MaxLength(50) @Nullable() phone?: string | null;
  @IsString() @MaxLength(200) @Nullable() first_name?: string | null;
  /** Default true: a minimal contact is created when none matches. Not nullable: `null` is 400, never "create". */
  @IsBoolean() @IsOptional() create_if_missing?: boolean;
}

/**
 * Body of POST /v1/events (public-api-v1 › Custom event input). Types and lengths here (400
 * `validation_error`, `unknown_field` for members not listed, at the root and in `contact`);
 * identifiers, formats, custom fields and payload caps in the handler.
 */
export class CustomEventDto {
  /** Case-sensitive name matched to the automations' custom-event trigger. */
  @IsDefined() @IsString() @Length(1, 255) event!: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => CustomEventContactDto) contact!: CustomEventContactDto;
  /** Free-form object; top-level keys feed `{{event.<key>}}`. */
  @IsObject() @Nullable() payload?: Record<string, unknown> | null;
  /** Keyed by custom field definition name; unknown names ignored. */
  @IsObject() @Nullable() custom_fields?: Record<string, unknown> | null;
  @IsString() @MaxLength(255) @Nullable() source_label?: string | null;
}
