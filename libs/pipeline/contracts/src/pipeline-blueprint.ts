/** Slug of a pipeline or a stage: a text identifier (lead capture's `pipeline_slug`, `stage_slug`). */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
export const SLUG_MAX_LENGTH = 100;

/** At most 50 stages per account, across its pipelines (public-api-v1 › Limits). */
export const MAX_STAGES_PER_ACCOUNT = 50;

/** One stage of a provisioned pipeline (operator-api › blueprint `pipelines[].stages[]`). */
export interface StageSpec {
  name: string;
  slug: string;
  isDefault?: boolean | null;
  isHidden?: boolean | null;
  isWon?: boolean | null;
  isLost?: boolean | null;
  isDisqualification?: boolean | null;
}

/** One pipeline of a blueprint; stages keep the order given (`stage_order`). */
export interface PipelineSpec {
  name: string;
  slug: string;
  isDefault?: boolean | null;
  stages: StageSpec[];
}

/** Ids of what was provisioned, keyed by slug: `{ <pipeline slug>: { id, stages: { <stage slug>: id } } }`. */
export type ProvisionedPipelines = Record<string, { id: string; stages: Record<string, string> }>;
