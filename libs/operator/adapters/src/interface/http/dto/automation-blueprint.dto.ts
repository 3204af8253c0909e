import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsString, MaxLength, ValidateNested, IsOptional } from 'class-validator';
import { AUTOMATION_STEP_TYPES, AUTOMATION_TRIGGER_TYPES } from '@leadflow/automations-contracts';
import type { AutomationSpec } from '@leadflow/automations-contracts';
import { Nullable } from '@leadflow/shared-platform';

/**
 * Blueprint `automations[].trigger`: `type` one of custom_event, manual, contact_created,
 * stage_changed; `event` (custom_event, required); `stage_id`, or `pipeline_slug` (+ `stage_slug`)
 * narrowing a stage_changed trigger. Per-type rules are the automations context's (paths kept).
 */
export class AutomationTriggerBlueprintDto {
  @IsDefined() @IsString() @IsIn(AUTOMATION_TRIGGER_TYPES) type!: (typeof AUTOMATION_TRIGGER_TYPES)[number];
  @Nullable() @IsString() @MaxLength(200) event?: string | null;
  @IsOptional() @IsString() @MaxLength(100) stage_id?: string;
  @IsOptional() @IsString() @MaxLength(100) pipeline_slug?: string;
  @IsOptional() @IsString() @MaxLength(100) stage_slug?: string;
}

/** Blueprint `automations[].steps[]`: fields by `type` (see ProvisionAutomationsCommand). */
export class AutomationStepBlueprintDto {
  @IsDefined() @IsString() @IsIn(AUTOMATION_STEP_TYPES) type!: (typeof AUTOMATION_STEP_TYPES)[number];
  @Nullable() @IsString() @MaxLength(100) tag?: string | null;
  @IsOptional() @IsString() @MaxLength(998) subject?: string;
  @IsOptional() @IsString() @MaxLength(100_000) body?: string;
  @IsOptional() @IsString() @MaxLength(100) stage_id?: string;
  @IsOptional() @IsString() @MaxLength(100) pipeline_slug?: string;
  @IsOptional() @IsString() @MaxLength(100) stage_slug?: string;
  @IsOptional() @IsInt() seconds?: number;
  @IsOptional() @IsString() @MaxLength(100) event?: string;
}

/** Blueprint `automations[]` (operator-api); the response keys ids by `name`. */
export class AutomationBlueprintDto {
  @IsDefined() @IsString() @MaxLength(200) name!: string;
  @IsOptional() @IsBoolean() is_active?: boolean;
  @IsOptional() @IsBoolean() is_published?: boolean;
  @IsOptional() @IsBoolean() allow_concurrent_runs?: boolean;
  @Nullable() @ValidateNested() @Type(() => AutomationTriggerBlueprintDto) trigger?: AutomationTriggerBlueprintDto | null;
  @IsOptional() @IsArray() @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => AutomationStepBlueprintDto) steps?: AutomationStepBlueprintDto[];
}

export function toAutomationSpec(dto: AutomationBlueprintDto): AutomationSpec {
  return {
    name: dto.name,
    isActive: dto.is_active ?? null,
    isPublished: dto.is_published ?? null,
    allowConcurrentRuns: dto.allow_concurrent_runs ?? null,
    trigger: dto.trigger
      ? { type: dto.trigger.type, event: dto.trigger.event, stageId: dto.trigger.stage_id, pipelineSlug: dto.trigger.pipeline_slug, stageSlug: dto.trigger.stage_slug }
      : null,
    steps: (dto.steps ?? []).map((step) => ({
      type: step.type,
      tag: step.tag,
      subject: step.subject,
      body: step.body,
      stageId: step.stage_id,
      pipelineSlug: step.pipeline_slug,
      stageSlug: step.stage_slug,
      seconds: step.seconds,
      event: step.event,
    })),
  };
}
