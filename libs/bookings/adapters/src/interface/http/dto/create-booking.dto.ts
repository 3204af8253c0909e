import { applyDecorators } from '@nestjs/common';
import { Equals, IsDefined, IsObject, IsString, MaxLength, ValidateIf } from 'class-validator';
import { Nullable } from '@leadflow/shared-platform';

const present = (_: object, value: unknown) => value !== undefined;

/**
 * Body of `POST /v1/bookings` (public-api-v1 › Endpoints › Bookings). Types and lengths here (400
 * `validation_error` with array details: `required`, `invalid_type`, `too_long`, `unknown_field`;
 * `end_datetime` reason `read_only`: the duration is the calendar's). Values (datetime, zone, guest,
 * references, calendar rules) are checked by CreateBookingHandler with single-cause details.
 */
export class CreateBookingDto {
  @IsDefined() @IsString() @MaxLength(64) event_type_id!: string;
  @IsDefined() @IsString() @MaxLength(64) start_datetime!: string;
  @Nullable() @IsString() @MaxLength(64) contact_id?: string | null;
  @Nullable() @IsString() @MaxLength(200) guest_name?: string | null;
  @Nullable() @IsString() @MaxLength(320) guest_email?: string | null;
  @Nullable() @IsString() @MaxLength(50) guest_phone?: string | null;
  @Nullable() @IsString() @MaxLength(64) host_id?: string | null;
  @Nullable() @IsString() @MaxLength(64) timezone?: string | null;
  @Nullable() @IsString() @MaxLength(5000) notes?: string | null;
  @Nullable() @IsObject() form_responses?: Record<string, unknown> | null;
  /** Refused: the end is the start plus the calendar's duration. */
  @applyDecorators(
    ValidateIf(present),
    Equals(undefined, { message: 'end_datetime is not accepted: the duration is the calendar\'s.', context: { reason: 'read_only' } }),
  )
  end_datetime?: unknown;
}
