/** A pipeline as other contexts read it (plain data, never a domain object). */
export interface PipelineView {
  id: string;
  name: string;
  slug: string;
  isDefault: boolean;
  /** Position of the pipeline in the dashboard (ascending). */
  dashboardOrder: number;
}

/**
 * A stage with its pipeline (public-api-v1 › Deal and pipeline stage, without `contact_count`, which
 * the stage list computes in real time from the contacts).
 */
export interface StageView {
  id: string;
  name: string;
  slug: string;
  pipelineId: string;
  pipeline: { id: string; name: string; slug: string; isDefault: boolean; dashboardOrder: number };
  /** Position in the pipeline (ascending from 1). */
  stageOrder: number;
  isDefault: boolean;
  isHidden: boolean;
  isWon: boolean;
  isLost: boolean;
  isDisqualification: boolean;
}
