import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  AccountView,
  CreateAccountCommand,
  CreateApiKeyCommand,
  IssuedApiKey,
  RevokeApiKeyCommand,
  UpdateAccountCommand,
} from '@leadflow/accounts-contracts';
import { DefineCustomFieldsCommand } from '@leadflow/contacts-contracts';
import { ProvisionEventsCommand } from '@leadflow/events-contracts';
import { ProvisionSendersCommand, SeedConversationsCommand } from '@leadflow/messaging-contracts';
import { ActivityEntryView, ListAccountActivityQuery } from '@leadflow/operator-core';
import { ProvisionPipelinesCommand } from '@leadflow/pipeline-contracts';
import { Actor, asAccountId, InvalidRequestError, isUuid, Page } from '@leadflow/shared-kernel';
import { CurrentOperatorActor, readPageRequest, TransactionHost } from '@leadflow/shared-platform';
import { AccountBlueprintDto, ApiKeySpecDto } from './dto/account-blueprint.dto';
import { toApiKeySpec } from './dto/api-key-spec.mapper';
import { toPipelineSpec } from './dto/pipeline-blueprint.dto';
import { toCustomFieldSpec } from './dto/custom-field-blueprint.dto';
import { toSenderSpec } from './dto/sender-blueprint.dto';
import { toAutomationSpec } from './dto/automation-blueprint.dto';
import { ProvisionAutomationsCommand } from '@leadflow/automations-contracts';
import { toCalendarSpec } from './dto/calendar-blueprint.dto';
import { ProvisionCalendarsCommand } from '@leadflow/bookings-contracts';
import { toEventSpec } from './dto/event-blueprint.dto';
import { toConversationSpec } from './dto/conversation-blueprint.dto';
import { toAccountPatch, UpdateAccountDto } from './dto/update-account.dto';
import { accountIdParam, apiKeyIdParam } from './uuid-or-404.pipe';

/**
 * Operator API (operator-api › Operator API), behind `ADMIN_TOKEN`: account blueprints and keys.
 * The whole blueprint is created in one transaction: any refusal leaves nothing behind.
 */
@Controller('admin/v1/accounts')
export class AccountsAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly transactions: TransactionHost,
  ) {}

  @Post()
  async provision(@Body() blueprint: AccountBlueprintDto, @CurrentOperatorActor() actor: Actor): Promise<Record<string, unknown>> {
    return this.transactions.run(async () => {
      const created = await this.commands.execute(
        new CreateAccountCommand({
          name: blueprint.name,
          timezone: blueprint.timezone,
          features: blueprint.features,
          apiTermsAccepted: blueprint.api_terms_accepted,
          quoteDefaults: blueprint.quote_defaults,
          systems: blueprint.systems?.map((s) => ({ name: s.name, isMain: s.is_main, isActive: s.is_active })),
          teamMembers: blueprint.team_members?.map((m) => ({
            email: m.email,
            firstName: m.first_name,
            lastName: m.last_name,
            isActive: m.is_active,
            isSalesRep: m.is_sales_rep,
            canDeleteProspects: m.can_delete_prospects,
          })),
          apiKeys: blueprint.api_keys?.map(toApiKeySpec),
        }, actor),
      );
      const accountId = asAccountId(created.accountId);
      const pipelines = await this.commands.execute(new ProvisionPipelinesCommand(accountId, (blueprint.pipelines ?? []).map(toPipelineSpec)));
      const senders = await this.commands.execute(
        new ProvisionSendersCommand(accountId, (blueprint.senders ?? []).map((sender) => toSenderSpec(sender, blueprint.name))),
      );
      const customFields = await this.commands.execute(
        new DefineCustomFieldsCommand(accountId, (blueprint.custom_fields ?? []).map(toCustomFieldSpec)),
      );
      const automations = await this.commands.execute(new ProvisionAutomationsCommand(accountId, (blueprint.automations ?? []).map(toAutomationSpec)));
      const calendars = await this.commands.execute(new ProvisionCalendarsCommand(accountId, (blueprint.calendars ?? []).map(toCalendarSpec)));
      const events = await this.commands.execute(new ProvisionEventsCommand(accountId, (blueprint.events ?? []).map(toEventSpec)));
      const conversations = await this.commands.execute(new SeedConversationsCommand(accountId, (blueprint.conversations ?? []).map(toConversationSpec)));
      return {
        account_id: created.accountId,
        api_keys: created.apiKeys,
        systems: created.systems,
        team_members: created.teamMembers,
        pipelines,
        senders,
        custom_fields: customFields,
        automations,
        calendars,
        events,
        conversations,
      };
    });
  }

  /** `PATCH /admin/v1/accounts/{id}`: features, terms, quote defaults, time zone; 200 `{ data: account }`. */
  @Patch(':account_id')
  async update(
    @Param('account_id', accountIdParam()) accountId: string,
    @Body() dto: UpdateAccountDto,
    @CurrentOperatorActor() actor: Actor,
  ): Promise<{ data: AccountView }> {
    const account = await this.transactions.run(() =>
      this.commands.execute(new UpdateAccountCommand(asAccountId(accountId), toAccountPatch(dto), actor)),
    );
    return { data: account };
  }

  /** One more key: 201 `{ id, key, prefix }` (the raw key is shown once). */
  @Post(':account_id/api-keys')
  createKey(
    @Param('account_id', accountIdParam()) accountId: string,
    @Body() spec: ApiKeySpecDto,
    @CurrentOperatorActor() actor: Actor,
  ): Promise<IssuedApiKey> {
    return this.transactions.run(() => this.commands.execute(new CreateApiKeyCommand(asAccountId(accountId), toApiKeySpec(spec), actor)));
  }

  /**
   * The key stops authenticating at once (401 from the next request). 200 with the first revocation
   * instant (revoking again answers the same); 404 when not the account's key.
   */
  @Post(':account_id/api-keys/:key_id/revoke')
  @HttpCode(200)
  async revokeKey(
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('key_id', apiKeyIdParam()) keyId: string,
    @CurrentOperatorActor() actor: Actor,
  ): Promise<{ data: { id: string; revoked: true; lifecycle_state: 'revoked'; revoked_at: string } }> {
    const revoked = await this.transactions.run(() =>
      this.commands.execute(new RevokeApiKeyCommand(asAccountId(accountId), keyId, actor)),
    );
    return { data: { id: revoked.keyId, revoked: true, lifecycle_state: 'revoked', revoked_at: revoked.revokedAt.toISOString() } };
  }

  /**
   * `GET /admin/v1/accounts/{id}/activity`: activity-log and timeline entries, newest first, with
   * `cursor` and `limit` (1–100, default 20); optional exact filters `contact_id` and `type`.
   */
  @Get(':account_id/activity')
  activity(@Param('account_id', accountIdParam()) accountId: string, @Query() query: Record<string, unknown>): Promise<Page<ActivityEntryView>> {
    const page = readPageRequest(query);
    const contactId = query.contact_id;
    if (contactId !== undefined && !isUuid(contactId)) throw new InvalidRequestError('contact_id', 'invalid_format', 'contact_id must be a UUID.');
    const type = query.type;
    if (type !== undefined && (typeof type !== 'string' || type.length === 0 || type.length > 100)) {
      throw new InvalidRequestError('type', 'invalid_format', 'type must be an activity type name.');
    }
    return this.queries.execute(
      new ListAccountActivityQuery(asAccountId(accountId), { contactId: contactId ?? null, type: (type as string | undefined) ?? null }, page),
    );
  }
}
