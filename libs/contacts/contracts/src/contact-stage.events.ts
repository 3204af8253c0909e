/**
 * `stage_changed`: a contact entered, changed or left a pipeline stage. Written to `platform.outbox`
 * by the contacts context in the transaction of the move; consumed by the webhooks (public-api-v1 ›
 * Events: stage moves trigger a webhook) and by the automations' `stage_changed` trigger.
 */
export const STAGE_CHANGED_EVENT = 'stage_changed';

export interface StageChangedPayload extends Record<string, unknown> {
  contact_id: string;
  /** The pipeline entered or moved within; on removal, the pipeline left. */
  pipeline_id: string | null;
  /** Null when the contact had no stage. */
  from_stage_id: string | null;
  /** Null when the contact left its pipeline (DELETE /v1/pipeline/deals/{id}). */
  to_stage_id: string | null;
}
