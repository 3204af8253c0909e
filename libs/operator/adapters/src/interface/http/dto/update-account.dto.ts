import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { FEATURES } from '@leadflow/accounts-contracts';
import type { AccountPatch, Feature } from '@leadflow/accounts-contracts';
import { QuoteDefaultsDto } from './account-blueprint.dto';
import { IsIanaTimezone } from './timezone.validator';

/** Validates a member only when it is present: an explicit `null` is refused (`invalid_type`), not ignored. */
const present = (_: object, value: unknown) => value !== undefined;

/** `PATCH /admin/v1/accounts/{id}` body: at least one member (else 400 `no_fields`). */
export class UpdateAccountDto {
  @ValidateIf(present) @IsArray() @ArrayMaxSize(50) @IsIn(FEATURES, { each: true }) features?: Feature[];
  @ValidateIf(present) @IsBoolean() api_terms_accepted?: boolean;
  @ValidateIf(present) @ValidateNested() @Type(() => QuoteDefaultsDto) quote_defaults?: QuoteDefaultsDto;
  @ValidateIf(present) @IsString() @MaxLength(64) @IsIanaTimezone() timezone?: string;
}

export function toAccountPatch(dto: UpdateAccountDto): AccountPatch {
  return {
    ...(dto.features !== undefined ? { features: dto.features } : {}),
    ...(dto.api_terms_accepted !== undefined ? { apiTermsAccepted: dto.api_terms_accepted } : {}),
    ...(dto.quote_defaults !== undefined ? { quoteDefaults: { ...dto.quote_defaults } } : {}),
    ...(dto.timezone !== undefined ? { timezone: dto.timezone } : {}),
  };
}
