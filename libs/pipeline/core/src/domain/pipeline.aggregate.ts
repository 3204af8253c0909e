import { FieldViolation, newId } from '@leadflow/shared-kernel';
import { MAX_STAGES_PER_ACCOUNT, PipelineSpec, SLUG_MAX_LENGTH, SLUG_PATTERN, StageSpec } from '@leadflow/pipeline-contracts';
import { InvalidPipelinesError } from './pipeline.errors';

export interface Stage {
  id: string;
  name: string;
  slug: string;
  stageOrder: number;
  isDefault: boolean;
  isHidden: boolean;
  isWon: boolean;
  isLost: boolean;
  isDisqualification: boolean;
  createdAt: Date;
}

export interface Pipeline {
  id: string;
  name: string;
  slug: string;
  isDefault: boolean;
  dashboardOrder: number;
  createdAt: Date;
  stages: Stage[];
}

/** What provisioning must know of the account's pipelines already stored. */
export interface ExistingPipeline {
  slug: string;
  isDefault: boolean;
  dashboardOrder: number;
  stageCount: number;
}

const NAME_MAX_LENGTH = 200;

/**
 * Builds new pipelines from blueprint specs, checking every rule of ProvisionPipelinesCommand against
 * the specs and the pipelines the account already has. Throws {@link InvalidPipelinesError} listing
 * every breach (fields named like the blueprint: `pipelines[1].stages[0].slug`).
 */
export function provisionPipelines(specs: readonly PipelineSpec[], existing: readonly ExistingPipeline[], now: Date): Pipeline[] {
  const violations: FieldViolation[] = [];
  const takenSlugs = new Set(existing.map((pipeline) => pipeline.slug));
  const existingDefault = existing.some((pipeline) => pipeline.isDefault);
  const flaggedDefaults = specs.flatMap((spec, index) => (spec.isDefault === true ? [index] : []));

  if (existingDefault) {
    for (const index of flaggedDefaults) {
      violations.push({ field: `pipelines[${index}].is_default`, reason: 'invalid_value', message: 'The account already has a default pipeline.' });
    }
  } else {
    for (const index of flaggedDefaults.slice(1)) {
      violations.push({ field: `pipelines[${index}].is_default`, reason: 'invalid_value', message: 'Only one pipeline can be the default one.' });
    }
  }
  const defaultIndex = existingDefault ? -1 : (flaggedDefaults[0] ?? 0);

  const stageTotal = existing.reduce((sum, pipeline) => sum + pipeline.stageCount, 0) + specs.reduce((sum, spec) => sum + spec.stages.length, 0);
  if (stageTotal > MAX_STAGES_PER_ACCOUNT) {
    violations.push({ field: 'pipelines', reason: 'too_many', message: `An account has at most ${MAX_STAGES_PER_ACCOUNT} stages.` });
  }

  const firstOrder = existing.reduce((max, pipeline) => Math.max(max, pipeline.dashboardOrder), 0) + 1;
  const pipelines = specs.map((spec, index): Pipeline => {
    const at = `pipelines[${index}]`;
    checkName(spec.name, `${at}.name`, violations);
    if (checkSlug(spec.slug, `${at}.slug`, violations)) {
      if (takenSlugs.has(spec.slug)) {
        violations.push({ field: `${at}.slug`, reason: 'duplicate', message: `Pipeline slug "${spec.slug}" is already used in this account.` });
      }
      takenSlugs.add(spec.slug);
    }
    return {
      id: newId(),
      name: spec.name,
      slug: spec.slug,
      isDefault: index === defaultIndex,
      dashboardOrder: firstOrder + index,
      createdAt: now,
      stages: stagesOf(spec.stages, at, now, violations),
    };
  });

  if (violations.length > 0) throw new InvalidPipelinesError(violations);
  return pipelines;
}

function stagesOf(specs: readonly StageSpec[], at: string, now: Date, violations: FieldViolation[]): Stage[] {
  if (specs.length === 0) {
    violations.push({ field: `${at}.stages`, reason: 'too_few', message: 'A pipeline needs at least one stage.' });
    return [];
  }
  const flaggedDefaults = specs.flatMap((spec, index) => (spec.isDefault === true ? [index] : []));
  for (const index of flaggedDefaults.slice(1)) {
    violations.push({ field: `${at}.stages[${index}].is_default`, reason: 'invalid_value', message: 'Only one stage of a pipeline can be the default one.' });
  }
  const defaultIndex = flaggedDefaults[0] ?? 0;
  const slugs = new Set<string>();
  let disqualification = false;
  return specs.map((spec, index): Stage => {
    const field = `${at}.stages[${index}]`;
    checkName(spec.name, `${field}.name`, violations);
    if (checkSlug(spec.slug, `${field}.slug`, violations)) {
      if (slugs.has(spec.slug)) {
        violations.push({ field: `${field}.slug`, reason: 'duplicate', message: `Stage slug "${spec.slug}" is already used in this pipeline.` });
      }
      slugs.add(spec.slug);
    }
    const isWon = spec.isWon === true;
    const isLost = spec.isLost === true;
    const isDisqualification = spec.isDisqualification === true;
    if (isWon && (isLost || isDisqualification)) {
      violations.push({ field: `${field}.is_won`, reason: 'exclusive_field', message: 'A won stage is neither lost nor the disqualification stage.' });
    }
    if (isDisqualification) {
      if (disqualification) {
        violations.push({ field: `${field}.is_disqualification`, reason: 'invalid_value', message: 'A pipeline has at most one disqualification stage.' });
      }
      disqualification = true;
    }
    return {
      id: newId(),
      name: spec.name,
      slug: spec.slug,
      stageOrder: index + 1,
      isDefault: index === defaultIndex,
      isHidden: spec.isHidden === true,
      isWon,
      isLost,
      isDisqualification,
      createdAt: now,
    };
  });
}

function checkName(name: unknown, field: string, violations: FieldViolation[]): void {
  if (typeof name !== 'string' || name.trim().length === 0) {
    violations.push({ field, reason: 'required', message: 'A name is required.' });
  } else if (name.length > NAME_MAX_LENGTH) {
    violations.push({ field, reason: 'too_long', message: `At most ${NAME_MAX_LENGTH} characters.` });
  }
}

/** True when the slug is well formed (so duplicates are worth checking). */
function checkSlug(slug: unknown, field: string, violations: FieldViolation[]): boolean {
  if (typeof slug !== 'string' || slug.length === 0) {
    violations.push({ field, reason: 'required', message: 'A slug is required.' });
    return false;
  }
  if (slug.length > SLUG_MAX_LENGTH || !SLUG_PATTERN.test(slug)) {
    violations.push({ field, reason: 'invalid_format', message: `A slug matches ${SLUG_PATTERN.source} and has at most ${SLUG_MAX_LENGTH} characters.` });
    return false;
  }
  return true;
}
