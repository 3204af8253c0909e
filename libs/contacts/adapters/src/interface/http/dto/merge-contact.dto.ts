import { IsBoolean, IsDefined, IsOptional, IsString, IsUUID } from 'class-validator';

/**
 * Body of `POST /v1/contacts/{id}/merge`: `into`, the survivor's id (required UUID: 400
 * `validation_error`, reasons `required`, `invalid_type`, `invalid_format`); `dry_run`, a boolean,
 * default false (true: the report of what would happen, nothing written).
 */
export class MergeContactDto {
  @IsDefined() @IsString() @IsUUID() into!: string;
  @IsBoolean() @IsOptional() dry_run?: boolean;
}
