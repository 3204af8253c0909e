import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsString, Matches, MaxLength, MinLength, ValidateNested, IsOptional } from 'class-validator';
import { MAX_STAGES_PER_ACCOUNT, SLUG_MAX_LENGTH, SLUG_PATTERN } from '@leadflow/pipeline-contracts';
import type { PipelineSpec } from '@leadflow/pipeline-contracts';

/** Blueprint `pipelines[].stages[]`. Uniqueness and default rules are the pipeline context's (one transaction). */
export class StageBlueprintDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(SLUG_MAX_LENGTH) @Matches(SLUG_PATTERN) slug!: string;
  @IsOptional() @IsBoolean() is_default?: boolean;
  @IsOptional() @IsBoolean() is_hidden?: boolean;
  @IsOptional() @IsBoolean() is_won?: boolean;
  @IsOptional() @IsBoolean() is_lost?: boolean;
  @IsOptional() @IsBoolean() is_disqualification?: boolean;
}

/** Blueprint `pipelines[]`: the response keys it by `slug`. */
export class PipelineBlueprintDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @IsDefined() @IsString() @MinLength(1) @MaxLength(SLUG_MAX_LENGTH) @Matches(SLUG_PATTERN) slug!: string;
  @IsOptional() @IsBoolean() is_default?: boolean;
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_STAGES_PER_ACCOUNT)
  @ValidateNested({ each: true })
  @Type(() => StageBlueprintDto)
  stages!: StageBlueprintDto[];
}

export function toPipelineSpec(dto: PipelineBlueprintDto): PipelineSpec {
  return {
    name: dto.name,
    slug: dto.slug,
    isDefault: dto.is_default ?? null,
    stages: dto.stages.map((stage) => ({
      name: stage.name,
      slug: stage.slug,
      isDefault: stage.is_default ?? null,
      isHidden: stage.is_hidden ?? null,
      isWon: stage.is_won ?? null,
      isLost: stage.is_lost ?? null,
      isDisqualification: stage.is_disqualification ?? null,
    })),
  };
}
