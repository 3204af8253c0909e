import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { FEATURES, PRESETS, SCOPES } from '@leadflow/accounts-contracts';
import { PipelineBlueprintDto } from './pipeline-blueprint.dto';
import { CustomFieldBlueprintDto } from './custom-field-blueprint.dto';
import { SenderBlueprintDto } from './sender-blueprint.dto';
import { AutomationBlueprintDto } from './automation-blueprint.dto';
import { CalendarBlueprintDto } from './calendar-blueprint.dto';
import { EventBlueprintDto } from './event-blueprint.dto';
import { ConversationBlueprintDto } from './conversation-blueprint.dto';
import { IsIanaTimezone } from './timezone.validator';
import { Nullable } from '@leadflow/shared-platform';

export class QuoteDefaultsDto {
  @IsOptional() @IsInt() @Min(1) @Max(365) validity_days?: number;
  @Nullable() @IsString() @MaxLength(500) payment_terms?: string | null;
  @IsOptional() @IsString() @MaxLength(50) signature_payment_order?: string;
  @IsOptional() @IsString() @MaxLength(50) tax_profile?: string;
}

export class SystemDto {
  @IsString() @Length(1, 200) name!: string;
  @IsOptional() @IsBoolean() is_main?: boolean;
  @IsOptional() @IsBoolean() is_active?: boolean;
}

export class TeamMemberDto {
  @IsEmail() @MaxLength(320) email!: string;
  @Nullable() @IsString() @MaxLength(200) first_name?: string | null;
  @Nullable() @IsString() @MaxLength(200) last_name?: string | null;
  @IsOptional() @IsBoolean() is_active?: boolean;
  @IsOptional() @IsBoolean() is_sales_rep?: boolean;
  @IsOptional() @IsBoolean() can_delete_prospects?: boolean;
}

/** An API key item: blueprint `api_keys[]` and `POST /admin/v1/accounts/{id}/api-keys`. */
export class ApiKeySpecDto {
  @IsString() @Length(1, 200) name!: string;
  @IsOptional() @IsIn(Object.keys(PRESETS)) preset?: keyof typeof PRESETS;
  @IsOptional() @IsArray() @ArrayMaxSize(SCOPES.length) @IsIn(SCOPES, { each: true }) scopes?: (typeof SCOPES)[number][];
  @Nullable() @IsInt() @Min(1) @Max(1_000_000) per_hour?: number | null;
  @Nullable() @IsInt() @Min(1) @Max(100_000) events_per_minute?: number | null;
  @Nullable() @IsISO8601({ strict: true }) expires_at?: string | null;
  @Nullable() @IsEmail() granted_by?: string | null;
}

/** The members of the account blueprint owned by the accounts context. */
export class AccountBlueprintDto {
  @IsString() @Length(1, 200) name!: string;
  @IsOptional() @IsString() @MaxLength(64) @IsIanaTimezone() timezone?: string;
  @IsOptional() @IsArray() @IsIn(FEATURES, { each: true }) features?: (typeof FEATURES)[number][];
  @IsOptional() @IsBoolean() api_terms_accepted?: boolean;
  @IsOptional() @ValidateNested() @Type(() => QuoteDefaultsDto) quote_defaults?: QuoteDefaultsDto;
  @IsOptional() @IsArray() @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => SystemDto) systems?: SystemDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(500) @ValidateNested({ each: true }) @Type(() => TeamMemberDto) team_members?: TeamMemberDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(100) @ValidateNested({ each: true }) @Type(() => ApiKeySpecDto) api_keys?: ApiKeySpecDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => PipelineBlueprintDto) pipelines?: PipelineBlueprintDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => SenderBlueprintDto) senders?: SenderBlueprintDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(200) @ValidateNested({ each: true }) @Type(() => CustomFieldBlueprintDto) custom_fields?: CustomFieldBlueprintDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(200) @ValidateNested({ each: true }) @Type(() => AutomationBlueprintDto) automations?: AutomationBlueprintDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(100) @ValidateNested({ each: true }) @Type(() => CalendarBlueprintDto) calendars?: CalendarBlueprintDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(100) @ValidateNested({ each: true }) @Type(() => EventBlueprintDto) events?: EventBlueprintDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(200) @ValidateNested({ each: true }) @Type(() => ConversationBlueprintDto) conversations?: ConversationBlueprintDto[];
}
