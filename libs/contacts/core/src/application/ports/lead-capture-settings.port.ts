import type { AccountId } from '@leadflow/shared-kernel';
import type { SystemView, TeamMemberView } from '@leadflow/accounts-contracts';
import type { PipelineView, StageView } from '@leadflow/pipeline-contracts';
import type { CustomFieldDefinition } from '../../domain/custom-fields';
import type { TagState } from './tag.repository.port';

/** The account's pipelines (dashboard order) and every stage of them, each with its pipeline. */
export interface PipelineDirectory {
  pipelines: readonly PipelineView[];
  stages: readonly StageView[];
}

/**
 * The account configuration lead capture reads before its transaction (public-api-v1 › Endpoints ›
 * Leads): Systems, pipelines and stages, team members (sales reps), custom-field definitions and tags
 * by name. The values are shared and must not be modified.
 *
 * The api adapter answers from a per-account in-process cache that every write of these data, in any
 * process, invalidates once committed (issue 11, item 3), so an answer is at most as old as that
 * invalidation's delivery (within a second; entries also expire after 30 s). Inside a unit of work it
 * reads through the transaction, uncached.
 */
export abstract class LeadCaptureSettings {
  /** Every System of the account, main first. */
  abstract systems(accountId: AccountId): Promise<readonly SystemView[]>;
  abstract pipelines(accountId: AccountId): Promise<PipelineDirectory>;
  /** Every team member of the account (active or not, sales rep or not). */
  abstract teamMembers(accountId: AccountId): Promise<readonly TeamMemberView[]>;
  /** Definitions in position order. */
  abstract customFieldDefinitions(accountId: AccountId): Promise<readonly CustomFieldDefinition[]>;
  /** The account's tags named exactly like one of `names` (names without a tag are left out), in no particular order. */
  abstract tagsNamed(accountId: AccountId, names: readonly string[]): Promise<readonly TagState[]>;
}
