import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AccountId, Actor, isUuid } from '@leadflow/shared-kernel';
import { GetContactCardQuery, MoveContactToStageCommand, TagContactByNameCommand, UntagContactByNameCommand } from '@leadflow/contacts-contracts';
import { QueueEmailCommand } from '@leadflow/messaging-contracts';
import { FindPipelineQuery, FindStageBySlugQuery, FindStageQuery } from '@leadflow/pipeline-contracts';
import type { StageView } from '@leadflow/pipeline-contracts';
import { AutomationCollaborators, AutomationContact, ResolvedStage } from '@leadflow/automations-core';

const resolved = (stage: StageView): ResolvedStage => ({
  pipelineId: stage.pipelineId,
  stageId: stage.id,
  acceptsDisqualifiedLeads: stage.isLost || stage.isDisqualification,
});

/** {@link AutomationCollaborators} through the contacts, pipeline and messaging contracts on the CQRS buses. */
@Injectable()
export class CqrsAutomationCollaborators extends AutomationCollaborators {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {
    super();
  }

  contact(accountId: AccountId, contactId: string): Promise<AutomationContact | null> {
    return this.queries.execute(new GetContactCardQuery(accountId, contactId));
  }

  async resolveStage(
    accountId: AccountId,
    reference: { stageId?: string | null; pipelineSlug?: string | null; stageSlug?: string | null },
  ): Promise<ResolvedStage | { pipelineId: string; stageId: null } | null> {
    if (reference.stageId) {
      if (!isUuid(reference.stageId)) return null;
      const stage = await this.queries.execute(new FindStageQuery(accountId, reference.stageId.toLowerCase()));
      return stage ? resolved(stage) : null;
    }
    if (!reference.pipelineSlug) return null;
    if (!reference.stageSlug) {
      const pipeline = await this.queries.execute(new FindPipelineQuery(accountId, reference.pipelineSlug));
      return pipeline ? { pipelineId: pipeline.id, stageId: null } : null;
    }
    const stage = await this.queries.execute(new FindStageBySlugQuery(accountId, reference.pipelineSlug, reference.stageSlug));
    return stage ? resolved(stage) : null;
  }

  addTag(accountId: AccountId, contactId: string, tagName: string, actor: Actor): Promise<{ tagId: string; added: boolean }> {
    return this.commands.execute(new TagContactByNameCommand(accountId, contactId, tagName, actor));
  }

  removeTag(accountId: AccountId, contactId: string, tagName: string, actor: Actor): Promise<{ removed: boolean }> {
    return this.commands.execute(new UntagContactByNameCommand(accountId, contactId, tagName, actor));
  }

  async queueEmail(accountId: AccountId, email: { to: string; subject: string; html: string; contactId: string; executionId: string }): Promise<{ emailId: string }> {
    const queued = await this.commands.execute(
      new QueueEmailCommand(accountId, {
        to: email.to,
        subject: email.subject,
        html: email.html,
        type: 'automation',
        priority: 2,
        contactId: email.contactId,
        source: { kind: 'automation_execution', id: email.executionId },
      }),
    );
    return { emailId: queued.id };
  }

  async moveToStage(accountId: AccountId, contactId: string, stage: ResolvedStage, actor: Actor): Promise<{ changed: boolean }> {
    const change = await this.commands.execute(new MoveContactToStageCommand(accountId, contactId, stage, actor, { stopsAiFollowUp: false }));
    return { changed: change.changed };
  }
}
