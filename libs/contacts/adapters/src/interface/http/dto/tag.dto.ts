import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * `POST /v1/tags`. `name` is required (missing, null or blank: reason `required`), which the domain
 * checks with the `#RRGGBB` color and the reserved prefix.
 */
export class CreateTagDto {
  @IsString() @MaxLength(100) @IsOptional() name?: string | null;
  @IsString() @MaxLength(50) @IsOptional() color?: string | null;
  @IsString() @MaxLength(1000) @IsOptional() description?: string | null;
  @IsString() @MaxLength(100) @IsOptional() category?: string | null;
}
