import type { AccountId, Actor } from '@leadflow/shared-kernel';

/** The contact fields steps and checks read (another context's data, through its published query). */
export interface AutomationContact {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  company: string | null;
  archived: boolean;
}

/** A stage resolved for a `move_to_stage` step or a `stage_changed` filter. */
export interface ResolvedStage {
  pipelineId: string;
  stageId: string;
  /** Lost or disqualification stage (a disqualified lead may still go there). */
  acceptsDisqualifiedLeads: boolean;
}

/**
 * What automations ask of other contexts (contacts, pipeline, messaging), through their contracts.
 * Every write joins the caller's unit of work; business refusals are thrown as DomainErrors.
 */
export abstract class AutomationCollaborators {
  /** Null when missing, merged or another account's. */
  abstract contact(accountId: AccountId, contactId: string): Promise<AutomationContact | null>;
  /** A stage by id or by slugs; null when missing (pipeline slug alone: `stageId` is null). */
  abstract resolveStage(accountId: AccountId, reference: { stageId?: string | null; pipelineSlug?: string | null; stageSlug?: string | null }): Promise<ResolvedStage | { pipelineId: string; stageId: null } | null>;
  abstract addTag(accountId: AccountId, contactId: string, tagName: string, actor: Actor): Promise<{ tagId: string; added: boolean }>;
  abstract removeTag(accountId: AccountId, contactId: string, tagName: string, actor: Actor): Promise<{ removed: boolean }>;
  abstract queueEmail(accountId: AccountId, email: { to: string; subject: string; html: string; contactId: string; executionId: string }): Promise<{ emailId: string }>;
  abstract moveToStage(accountId: AccountId, contactId: string, stage: ResolvedStage, actor: Actor): Promise<{ changed: boolean }>;
}

/** Hands an execution to the engine's queue (worker side). */
export abstract class ExecutionScheduler {
  /** Runs the execution again after `delayMs`; `jobKey` makes the hand-off idempotent. */
  abstract schedule(accountId: string, executionId: string, jobKey: string, delayMs: number): Promise<void>;
}
