import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsString, MaxLength } from 'class-validator';

/** `POST /v1/contacts/{id}/tags`: 1 to 100 tag ids (each checked by the handler: UUID of an account tag). */
export class AttachTagsDto {
  @IsDefined() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(100) tag_ids!: unknown[];
}

/** `POST /v1/contacts/{id}/notes`: `body` 1 to 10000 characters (missing, null or blank: reason `required`, checked by the handler). */
export class AddNoteDto {
  @IsDefined() @IsString() @MaxLength(10_000) body!: string;
}
