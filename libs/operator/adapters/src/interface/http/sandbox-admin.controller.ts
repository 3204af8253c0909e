import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, ValidateNested } from 'class-validator';
import { QueryFailedError } from 'typeorm';
import {
  AccountModeView,
  CreateAccountCommand,
  CreatedAccount,
  GetAccountModeQuery,
  GetAccountQuery,
  ListSystemsQuery,
  ListTeamMembersQuery,
} from '@leadflow/accounts-contracts';
import {
  ExportAutomationsQuery,
  ExportedAutomation,
  ProvisionAutomationsCommand,
  ResetAutomationsDataCommand,
  AutomationSpec,
} from '@leadflow/automations-contracts';
import { ExportCalendarsQuery, ProvisionCalendarsCommand, ResetBookingsDataCommand } from '@leadflow/bookings-contracts';
import { DefineCustomFieldsCommand, ExportContactsConfigurationQuery, ProvisionTagsCommand, ResetContactsDataCommand } from '@leadflow/contacts-contracts';
import { ExportEventsQuery, ProvisionEventsCommand, ResetEventsDataCommand } from '@leadflow/events-contracts';
import { ListSendersQuery, ProvisionSendersCommand, ResetMessagingDataCommand } from '@leadflow/messaging-contracts';
import { OPERATOR_ACTOR } from '@leadflow/operator-contracts';
import { LiveAccountRequiredError, SandboxAccountNotFoundError, SandboxExistsError, SandboxRequiredError } from '@leadflow/operator-core';
import { ListPipelinesQuery, ListStagesQuery, PipelineSpec, ProvisionPipelinesCommand } from '@leadflow/pipeline-contracts';
import { ResetQuotesDataCommand } from '@leadflow/quotes-contracts';
import { AccountId, asAccountId, Clock } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ResetWebhooksDataCommand } from '@leadflow/webhooks-contracts';
import { PlatformSandboxData } from '../../infrastructure/persistence/platform-sandbox-data';
import { ApiKeySpecDto } from './dto/account-blueprint.dto';
import { toApiKeySpec } from './dto/api-key-spec.mapper';
import { accountIdParam } from './uuid-or-404.pipe';

/** Body of `POST /admin/v1/accounts/{account_id}/sandbox` (optional): the sandbox's first keys, issued `lf_test_`. */
export class CreateSandboxDto {
  @IsOptional() @IsArray() @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => ApiKeySpecDto) api_keys?: ApiKeySpecDto[];
}

/** The unique index that keeps one sandbox per live account (accounts' migration 1799000000000). */
const ONE_SANDBOX_INDEX = 'accounts_sandbox_of_uq';

/**
 * Test mode (issue 15, item 4), operator side. A sandbox is an ordinary account with mode `test`,
 * linked to one live account (`sandbox_of`):
 *
 * - `POST /admin/v1/accounts/{account_id}/sandbox` exports the live account's configuration through
 *   each context's published queries and provisions the sandbox from it through the same published
 *   commands as a blueprint (`POST /admin/v1/accounts`), in one transaction: account settings, Systems,
 *   team members, pipelines and stages, senders, custom field definitions, tags, calendars,
 *   automations (stage references mapped by slug), events and editions. Never contacts, deals, quotes,
 *   bookings, conversations, emails, webhook subscriptions or keys. 201 with the blueprint response
 *   shape plus `mode` and `sandbox_of`. 404 `not_found` for an unknown account; 422
 *   `live_account_required` when the account is itself a sandbox; 409 `sandbox_exists` (with
 *   `details.sandbox_id`) when it already has one, also when two requests race (unique index).
 * - `POST /admin/v1/accounts/{sandbox_id}/reset` empties the sandbox's data through each context's
 *   `Reset…DataCommand` plus the platform's rows, in one transaction (all or nothing); configuration and
 *   keys stay. 200 with the rows deleted per table. 404 `not_found`; 422 `sandbox_required` on a live account.
 */
@Controller('admin/v1/accounts')
export class SandboxAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly transactions: TransactionHost,
    private readonly platform: PlatformSandboxData,
    private readonly clock: Clock,
  ) {}

  @Post(':account_id/sandbox')
  async createSandbox(@Param('account_id', accountIdParam()) id: string, @Body() dto: CreateSandboxDto = {}): Promise<Record<string, unknown>> {
    const liveId = asAccountId(id);
    try {
      return await this.transactions.run(() => this.copyInto(liveId, dto));
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { constraint?: string } | undefined)?.constraint === ONE_SANDBOX_INDEX) {
        const mode = await this.queries.execute(new GetAccountModeQuery(liveId));
        throw new SandboxExistsError(liveId, mode?.sandboxId ?? null);
      }
      throw error;
    }
  }

  @Post(':account_id/reset')
  @HttpCode(200)
  async reset(@Param('account_id', accountIdParam()) id: string): Promise<{ data: Record<string, unknown> }> {
    const accountId = asAccountId(id);
    const mode = await this.modeOf(accountId);
    if (mode.mode !== 'test') throw new SandboxRequiredError(accountId);
    const deleted = await this.transactions.run(async () => {
      const counts: Record<string, number>[] = [];
      // Contexts whose rows point at contacts first, contacts last; then the platform's rows.
      counts.push(await this.commands.execute(new ResetWebhooksDataCommand(accountId)));
      counts.push(await this.commands.execute(new ResetAutomationsDataCommand(accountId)));
      counts.push(await this.commands.execute(new ResetMessagingDataCommand(accountId)));
      counts.push(await this.commands.execute(new ResetEventsDataCommand(accountId)));
      counts.push(await this.commands.execute(new ResetBookingsDataCommand(accountId)));
      counts.push(await this.commands.execute(new ResetQuotesDataCommand(accountId)));
      counts.push(await this.commands.execute(new ResetContactsDataCommand(accountId)));
      counts.push(await this.platform.reset(accountId));
      return Object.assign({}, ...counts) as Record<string, number>;
    });
    return { data: { account_id: accountId, mode: 'test', sandbox_of: mode.sandboxOf, reset_at: this.clock.now().toISOString(), deleted } };
  }

  private async modeOf(accountId: AccountId): Promise<AccountModeView> {
    const mode = await this.queries.execute(new GetAccountModeQuery(accountId));
    if (!mode) throw new SandboxAccountNotFoundError();
    return mode;
  }

  /** Reads the live account's configuration and provisions the sandbox from it (inside the caller's transaction). */
  private async copyInto(liveId: AccountId, dto: CreateSandboxDto): Promise<Record<string, unknown>> {
    const mode = await this.modeOf(liveId);
    if (mode.mode === 'test') throw new LiveAccountRequiredError(liveId);
    if (mode.sandboxId) throw new SandboxExistsError(liveId, mode.sandboxId);
    const account = (await this.queries.execute(new GetAccountQuery(liveId)))!;
    const systems = await this.queries.execute(new ListSystemsQuery(liveId));
    const members = await this.queries.execute(new ListTeamMembersQuery(liveId));
    const pipelines = await this.exportPipelines(liveId);
    const senders = await this.queries.execute(new ListSendersQuery(liveId));
    const contacts = await this.queries.execute(new ExportContactsConfigurationQuery(liveId));
    const calendars = await this.queries.execute(new ExportCalendarsQuery(liveId));
    const automations = await this.queries.execute(new ExportAutomationsQuery(liveId));
    const events = await this.queries.execute(new ExportEventsQuery(liveId));

    const created: CreatedAccount = await this.commands.execute(
      new CreateAccountCommand(
        {
          name: account.name,
          timezone: account.timezone,
          features: account.features,
          apiTermsAccepted: account.api_terms_accepted,
          quoteDefaults: account.quote_defaults,
          systems: systems.map((system) => ({ name: system.name, isMain: system.isMain, isActive: system.isActive })),
          teamMembers: members.map(({ id: _id, ...member }) => member),
          apiKeys: (dto.api_keys ?? []).map(toApiKeySpec),
          sandboxOf: liveId,
        },
        OPERATOR_ACTOR,
      ),
    );
    const sandboxId = asAccountId(created.accountId);
    const emailOf = new Map(members.map((member) => [member.id, member.email]));
    return {
      account_id: created.accountId,
      mode: 'test',
      sandbox_of: liveId,
      api_keys: created.apiKeys,
      systems: created.systems,
      team_members: created.teamMembers,
      pipelines: await this.commands.execute(new ProvisionPipelinesCommand(sandboxId, pipelines.specs)),
      senders: await this.commands.execute(
        new ProvisionSendersCommand(sandboxId, senders.map((sender) => ({ email: sender.email, name: sender.name, isDefault: sender.isDefault }))),
      ),
      custom_fields: await this.commands.execute(new DefineCustomFieldsCommand(sandboxId, contacts.customFields)),
      tags: await this.commands.execute(new ProvisionTagsCommand(sandboxId, contacts.tags)),
      automations: await this.commands.execute(
        new ProvisionAutomationsCommand(sandboxId, automations.map((automation) => bySlugs(automation, pipelines.stageSlugs, pipelines.pipelineSlugs))),
      ),
      calendars: await this.commands.execute(
        new ProvisionCalendarsCommand(
          sandboxId,
          calendars.map(({ hostIds, ...calendar }) => ({ ...calendar, hosts: hostIds.map((hostId) => emailOf.get(hostId)).filter((email): email is string => !!email) })),
        ),
      ),
      events: await this.commands.execute(new ProvisionEventsCommand(sandboxId, events)),
    };
  }

  /** The live account's pipelines as blueprint items, and its stage and pipeline ids → slugs (to map automations). */
  private async exportPipelines(liveId: AccountId) {
    const pipelines = await this.queries.execute(new ListPipelinesQuery(liveId));
    const specs: PipelineSpec[] = [];
    const stageSlugs = new Map<string, { pipelineSlug: string; stageSlug: string }>();
    const pipelineSlugs = new Map<string, string>();
    for (const pipeline of [...pipelines].sort((a, b) => a.dashboardOrder - b.dashboardOrder)) {
      const stages = [...(await this.queries.execute(new ListStagesQuery(liveId, pipeline.id)))].sort((a, b) => a.stageOrder - b.stageOrder);
      pipelineSlugs.set(pipeline.id, pipeline.slug);
      for (const stage of stages) stageSlugs.set(stage.id, { pipelineSlug: pipeline.slug, stageSlug: stage.slug });
      specs.push({
        name: pipeline.name,
        slug: pipeline.slug,
        isDefault: pipeline.isDefault,
        stages: stages.map((stage) => ({
          name: stage.name,
          slug: stage.slug,
          isDefault: stage.isDefault,
          isHidden: stage.isHidden,
          isWon: stage.isWon,
          isLost: stage.isLost,
          isDisqualification: stage.isDisqualification,
        })),
      });
    }
    return { specs, stageSlugs, pipelineSlugs };
  }
}

/** An exported automation with its stage and pipeline ids replaced by slugs (resolved again in the sandbox). */
function bySlugs(
  automation: ExportedAutomation,
  stageSlugs: Map<string, { pipelineSlug: string; stageSlug: string }>,
  pipelineSlugs: Map<string, string>,
): AutomationSpec {
  const trigger = automation.trigger;
  const { pipelineId, stageId, ...triggerRest } = trigger ?? { type: 'manual' as const };
  return {
    ...automation,
    trigger: trigger
      ? {
          ...triggerRest,
          ...(stageId ? { pipelineSlug: stageSlugs.get(stageId)?.pipelineSlug, stageSlug: stageSlugs.get(stageId)?.stageSlug } : {}),
          ...(!stageId && pipelineId ? { pipelineSlug: pipelineSlugs.get(pipelineId) } : {}),
        }
      : null,
    steps: automation.steps.map(({ stageId: stepStageId, ...step }) =>
      stepStageId ? { ...step, pipelineSlug: stageSlugs.get(stepStageId)?.pipelineSlug, stageSlug: stageSlugs.get(stepStageId)?.stageSlug } : step,
    ),
  };
}
