import type { AccountId } from '@leadflow/shared-kernel';
import type { SystemView, TeamMemberView } from '@leadflow/accounts-contracts';
import type { PipelineView, StageView } from '@leadflow/pipeline-contracts';
import type { TagState } from '../application/ports/tag.repository.port';
import { LeadCaptureSettings, PipelineDirectory } from '../application/ports/lead-capture-settings.port';
import type { CustomFieldDefinition } from '../domain/custom-fields';
import type { InMemoryContactsStore } from './in-memory-contacts';

/** The other contexts' settings a fake account has (the same for every account). */
export interface LeadCaptureFixtures {
  systems: SystemView[];
  pipelines: PipelineView[];
  stages: StageView[];
  teamMembers: TeamMemberView[];
}

/**
 * {@link LeadCaptureSettings} without a cache: Systems, pipelines and team members from fixtures
 * (mutable: a test may change them between captures), definitions and tags from the contacts store.
 */
export class InMemoryLeadCaptureSettings extends LeadCaptureSettings {
  constructor(
    private readonly store: InMemoryContactsStore,
    readonly fixtures: LeadCaptureFixtures,
  ) {
    super();
  }

  async systems(): Promise<readonly SystemView[]> {
    return this.fixtures.systems;
  }

  async pipelines(): Promise<PipelineDirectory> {
    return { pipelines: this.fixtures.pipelines, stages: this.fixtures.stages };
  }

  async teamMembers(): Promise<readonly TeamMemberView[]> {
    return this.fixtures.teamMembers;
  }

  async customFieldDefinitions(accountId: AccountId): Promise<readonly CustomFieldDefinition[]> {
    return this.store.definitions.filter((row) => row.accountId === accountId).map(({ accountId: _a, ...definition }) => definition);
  }

  async tagsNamed(accountId: AccountId, names: readonly string[]): Promise<readonly TagState[]> {
    return this.store.tags.filter((tag) => tag.accountId === accountId && names.includes(tag.name)).map(({ accountId: _a, ...tag }) => tag);
  }
}
