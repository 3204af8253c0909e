import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsString, MaxLength } from 'class-validator';
import { CUSTOM_FIELD_TYPES, CustomFieldDefinitionSpec, CustomFieldType } from '@leadflow/contacts-contracts';
import { Nullable } from '@leadflow/shared-platform';

/** Blueprint `custom_fields[]`: the response keys the created ids by name. `options` only for `select`. */
export class CustomFieldBlueprintDto {
  @IsDefined() @IsString() @MaxLength(100) name!: string;
  @IsDefined() @IsIn(CUSTOM_FIELD_TYPES) type!: CustomFieldType;
  @Nullable() @IsArray() @ArrayMaxSize(200) @IsString({ each: true }) @MaxLength(200, { each: true }) options?: string[] | null;
}

export function toCustomFieldSpec(dto: CustomFieldBlueprintDto): CustomFieldDefinitionSpec {
  return { name: dto.name, type: dto.type, options: dto.options ?? null };
}
