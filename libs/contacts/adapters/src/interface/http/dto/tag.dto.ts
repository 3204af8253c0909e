import { IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { Nullable } from '@leadflow/shared-platform';

/**
 * `POST /v1/tags`. `name` is required (missing, null or blank: reason `required`), which the domain
 * checks with the `#RRGGBB` color and the reserved prefix.
 */
export class CreateTagDto {
  @IsDefined() @IsString() @MaxLength(100) name!: string;
  /** Default `#6b7280` when absent; not nullable. */
  @IsString() @MaxLength(50) @IsOptional() color?: string;
  @IsString() @MaxLength(1000) @Nullable() description?: string | null;
  @IsString() @MaxLength(100) @Nullable() category?: string | null;
}
