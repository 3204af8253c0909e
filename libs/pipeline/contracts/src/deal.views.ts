/**
 * Public read shapes of the pipeline routes (public-api-v1 › Deal and pipeline stage). JSON-safe:
 * timestamps are ISO 8601 UTC strings with milliseconds.
 */

/**
 * A deal: a contact whose pipeline stage is set, seen through a reduced set of its details. `id` is
 * the contact's id (read the whole contact with `GET /v1/contacts/{id}`).
 */
export interface DealView {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  company: string | null;
  /** Null only in the answer of DELETE /v1/pipeline/deals/{id} (the contact left its pipeline). */
  pipeline_id: string | null;
  stage_id: string | null;
  /** CAD, or null. */
  deal_value: number | null;
  /** The contact's lead score, integer 0–100 (`ContactView.score`: how it is computed and how fresh it is). */
  score: number;
  created_at: string;
  updated_at: string;
}

/**
 * A stage as `GET /v1/pipeline/stages` lists it. `slug` and `pipeline.slug` are the text identifiers
 * lead capture routes by (`pipeline.stage_slug`, `pipeline.pipeline_slug`): a stage slug is unique in
 * its pipeline, a pipeline slug in the account.
 */
export interface PipelineStageView {
  id: string;
  name: string;
  slug: string;
  pipeline_id: string;
  pipeline: { id: string; name: string; slug: string; is_default: boolean };
  /** Position in the pipeline, ascending from 1. */
  stage_order: number;
  /** Hidden stages are listed too. */
  is_hidden: boolean;
  is_default: boolean;
  is_won: boolean;
  is_lost: boolean;
  /** Contacts in the stage now, archived and merged contacts left out. */
  contact_count: number;
}
