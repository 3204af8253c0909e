import { IsBoolean, IsDefined, IsIn, IsString, IsUUID, Matches, MaxLength, ValidateIf } from 'class-validator';
import { Nullable } from '@leadflow/shared-platform';

/** Optional, but not nullable: `null` is validated (and refused) like any other value; only an absent member is skipped. */
const IsAbsentOr = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

/** Body of POST /v1/event-registrations; "exactly one of event_id / event_slug" is checked by the controller. */
export class EventRegistrationDto {
  @IsDefined() @IsString() @IsUUID('all') contact_id!: string;
  @IsString() @IsUUID('all') @Nullable() event_id?: string | null;
  @IsString() @MaxLength(100) @Nullable() event_slug?: string | null;
  /** Default: the event's next open edition. */
  @IsString() @IsUUID('all') @Nullable() edition_id?: string | null;
  /** Default: the event's first language; must be one of the event's languages. */
  @IsString() @MaxLength(20) @Matches(/^[A-Za-z]{2,3}(?:-[A-Za-z]{2})?$/) @Nullable() language?: string | null;
}

/** Body of PATCH /admin/v1/accounts/{account_id}/event-registrations/{registration_id}: at least one member. */
export class UpdateEventRegistrationDto {
  /** `declined`: the person said they will not attend; `registered` again. */
  @IsString() @IsIn(['registered', 'declined']) @IsAbsentOr() status?: 'registered' | 'declined';
  /** True: no more messages about this registration (kept by later registrations). */
  @IsBoolean() @IsAbsentOr() opted_out?: boolean;
}
