import { IsDefined, IsString, IsUUID } from 'class-validator';

/** `POST /v1/pipeline/deals`: both ids required, UUIDs (`required`, `invalid_type`, `invalid_format`). */
export class PlaceDealDto {
  @IsDefined() @IsString() @IsUUID() contact_id!: string;
  @IsDefined() @IsString() @IsUUID() stage_id!: string;
}

/** `PATCH /v1/pipeline/deals/{id}`: the target stage only; other fields change through the contact endpoint. */
export class MoveDealDto {
  @IsDefined() @IsString() @IsUUID() stage_id!: string;
}
