import { IsBoolean, IsDefined, IsEmail, IsString, MaxLength, MinLength, IsOptional } from 'class-validator';
import type { SenderSpec } from '@leadflow/messaging-contracts';
import { Nullable } from '@leadflow/shared-platform';

/** Blueprint `senders[]`: the response keys it by the lowercased email. */
export class SenderBlueprintDto {
  @IsDefined() @IsEmail() @MaxLength(320) email!: string;
  /** Defaults to the account's name. */
  @Nullable() @IsString() @MinLength(1) @MaxLength(200) name?: string | null;
  @IsOptional() @IsBoolean() is_default?: boolean;
}

export function toSenderSpec(dto: SenderBlueprintDto, accountName: string): SenderSpec {
  return { email: dto.email, name: dto.name ?? accountName, isDefault: dto.is_default ?? null };
}
