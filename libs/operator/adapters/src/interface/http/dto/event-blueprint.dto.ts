import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { EDITION_STATUSES, EVENT_LANGUAGE_PATTERN, EVENT_SLUG_MAX_LENGTH, EVENT_SLUG_PATTERN, EVENT_STATUSES } from '@leadflow/events-contracts';
import type { EditionStatus, EventSpec, EventStatus } from '@leadflow/events-contracts';

/** Blueprint `events[].editions[]` (operator-api › POST /admin/v1/accounts). */
export class EditionBlueprintDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @IsDefined() @IsString() @IsISO8601({ strict: true }) starts_at!: string;
  @IsDefined() @IsString() @IsISO8601({ strict: true }) ends_at!: string;
  /** `open` (default), `cancelled` or `ended`. */
  @IsOptional() @IsString() @IsIn(EDITION_STATUSES) status?: EditionStatus;
}

/** Blueprint `events[]`: the response keys it by `slug` (`{ id, editions: [ids in order] }`). */
export class EventBlueprintDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(EVENT_SLUG_MAX_LENGTH) @Matches(EVENT_SLUG_PATTERN) slug!: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(200) name!: string;
  /** `draft` (default), `published` or `archived`. */
  @IsOptional() @IsString() @IsIn(EVENT_STATUSES) status?: EventStatus;
  /** Default `["fr"]`; the first is the default language of registrations. */
  @IsOptional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(10) @IsString({ each: true }) @Matches(EVENT_LANGUAGE_PATTERN, { each: true }) languages?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(100) @ValidateNested({ each: true }) @Type(() => EditionBlueprintDto) editions?: EditionBlueprintDto[];
}

export function toEventSpec(dto: EventBlueprintDto): EventSpec {
  return {
    slug: dto.slug,
    name: dto.name,
    status: dto.status ?? 'draft',
    languages: dto.languages ?? ['fr'],
    editions: (dto.editions ?? []).map((edition) => ({
      name: edition.name,
      startsAt: edition.starts_at,
      endsAt: edition.ends_at,
      status: edition.status ?? 'open',
    })),
  };
}
