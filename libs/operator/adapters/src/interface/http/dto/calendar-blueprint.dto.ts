import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { CalendarSpec, QUESTION_TYPES, QuestionType } from '@leadflow/bookings-contracts';
import { IsIanaTimezone } from './timezone.validator';
import { Nullable } from '@leadflow/shared-platform';

const WALL_CLOCK = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** `availability[]`: `weekday` 1 (Monday) to 7 (Sunday), `start` and `end` `HH:MM` in the calendar's zone (`end` may be `24:00`). */
export class AvailabilityWindowDto {
  @IsDefined() @IsInt() @Min(1) @Max(7) weekday!: number;
  @IsDefined() @IsString() @Matches(WALL_CLOCK) start!: string;
  @IsDefined() @IsString() @Matches(WALL_CLOCK) end!: string;
}

/** `questions[]`: `id` (`[A-Za-z0-9_-]`, 1 to 64), `label`, `type` (text, number, select, multi_select), `required` (default false), `options` for the select types. */
export class CalendarQuestionDto {
  @IsDefined() @IsString() @Matches(/^[A-Za-z0-9_-]{1,64}$/) id!: string;
  @IsDefined() @IsString() @Length(1, 500) label!: string;
  @IsDefined() @IsIn(QUESTION_TYPES) type!: QuestionType;
  @IsOptional() @IsBoolean() required?: boolean;
  @Nullable() @IsArray() @ArrayMaxSize(100) @IsString({ each: true }) @MaxLength(200, { each: true }) options?: string[] | null;
}

/**
 * Blueprint `calendars[]` (operator-api › POST /admin/v1/accounts): the response keys the created ids by
 * name (`calendars: { <name>: <id> }`). Minutes for durations; defaults: `slot_interval_minutes` = the
 * duration, `min_notice_minutes` 0, `max_days_ahead` 60, `daily_max` null (unlimited), `capacity` 1,
 * `timezone` the account's, `requires_qualified_lead` false, `is_active` true.
 */
export class CalendarBlueprintDto {
  @IsDefined() @IsString() @Length(1, 200) name!: string;
  @IsDefined() @IsInt() @Min(5) @Max(1440) duration_minutes!: number;
  @Nullable() @IsInt() @Min(5) @Max(1440) slot_interval_minutes?: number | null;
  @Nullable() @IsInt() @Min(0) @Max(525_600) min_notice_minutes?: number | null;
  @Nullable() @IsInt() @Min(0) @Max(730) max_days_ahead?: number | null;
  @Nullable() @IsInt() @Min(1) @Max(1000) daily_max?: number | null;
  @Nullable() @IsInt() @Min(1) @Max(1000) capacity?: number | null;
  @Nullable() @IsString() @MaxLength(64) @IsIanaTimezone() timezone?: string | null;
  @IsOptional() @IsArray() @ArrayMaxSize(100) @IsEmail({}, { each: true }) hosts?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(100) @ValidateNested({ each: true }) @Type(() => AvailabilityWindowDto) availability?: AvailabilityWindowDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => CalendarQuestionDto) questions?: CalendarQuestionDto[];
  @IsOptional() @IsBoolean() requires_qualified_lead?: boolean;
  @IsOptional() @IsBoolean() is_active?: boolean;
  @Nullable() @IsString() @MaxLength(2048) @IsUrl({ require_protocol: true }) meeting_link?: string | null;
}

export function toCalendarSpec(dto: CalendarBlueprintDto): CalendarSpec {
  return {
    name: dto.name,
    durationMinutes: dto.duration_minutes,
    slotIntervalMinutes: dto.slot_interval_minutes ?? null,
    minNoticeMinutes: dto.min_notice_minutes ?? null,
    maxDaysAhead: dto.max_days_ahead ?? null,
    dailyMax: dto.daily_max ?? null,
    capacity: dto.capacity ?? null,
    timezone: dto.timezone ?? null,
    hosts: dto.hosts ?? [],
    availability: (dto.availability ?? []).map((window) => ({ weekday: window.weekday, start: window.start, end: window.end })),
    questions: (dto.questions ?? []).map((question) => ({
      id: question.id,
      label: question.label,
      type: question.type,
      required: question.required ?? false,
      options: question.options ?? null,
    })),
    requiresQualifiedLead: dto.requires_qualified_lead ?? false,
    isActive: dto.is_active ?? true,
    meetingLink: dto.meeting_link ?? null,
  };
}
