import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { Actor, Page, ValidationFailedError } from '@leadflow/shared-kernel';
import { CurrentActor, CurrentKey, readPageRequest, RequireFeature, RequireScope } from '@leadflow/shared-platform';
import {
  AutomationView,
  ExecutionView,
  GetAutomationHistoryQuery,
  ListAutomationsQuery,
  TriggerAutomationCommand,
  TriggeredExecutionView,
} from '@leadflow/automations-core';
import { MAX_EVENT_DATA_BYTES, TriggerAutomationDto } from './dto/trigger-automation.dto';

const STATUS_FILTER: Record<string, boolean> = { active: true, inactive: false };

/**
 * `/v1/automations` (public-api-v1 › Endpoints › Automations), plan module `automations` (403
 * `feature_not_available` with `details.feature` `automations` when the plan lacks it). A non-UUID,
 * missing, archived or other account's `{id}` answers 404 `not_found` alike.
 */
@Controller('v1/automations')
@RequireFeature('automations')
export class AutomationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Archived excluded; `status` `active` | `inactive` (else 400 `validation_error`, reason `invalid_value`), `cursor`, `limit`. */
  @Get()
  @RequireScope('automations:read')
  list(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<Page<AutomationView>> {
    const page = readPageRequest(query);
    const status = query.status;
    if (status !== undefined && (typeof status !== 'string' || !(status in STATUS_FILTER))) {
      throw new ValidationFailedError([{ field: 'status', reason: 'invalid_value', message: 'status must be active or inactive.' }]);
    }
    return this.queries.execute(new ListAutomationsQuery(key.accountId, status === undefined ? null : STATUS_FILTER[status as string], page));
  }

  /** Executions of the automation, `created_at DESC, id DESC`, paginated. */
  @Get(':id/history')
  @RequireScope('automations:read')
  history(@CurrentKey() key: ApiKeyPrincipal, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<Page<ExecutionView>> {
    return this.queries.execute(new GetAutomationHistoryQuery(key.accountId, id, readPageRequest(query)));
  }

  /** 201 `{ data: { id, status: 'pending', trigger_type: 'manual_api', retry_count, created_at, … } }`; see TriggerAutomationHandler. */
  @Post(':id/trigger')
  @RequireScope('automations:trigger')
  async trigger(
    @CurrentKey() key: ApiKeyPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: TriggerAutomationDto,
  ): Promise<{ data: TriggeredExecutionView }> {
    const eventData = body.event_data ?? {};
    if (Buffer.byteLength(JSON.stringify(eventData)) > MAX_EVENT_DATA_BYTES) {
      throw new ValidationFailedError([{ field: 'event_data', reason: 'too_large', message: `event_data is at most ${MAX_EVENT_DATA_BYTES} bytes of JSON.` }]);
    }
    const execution = await this.commands.execute(new TriggerAutomationCommand(key.accountId, id, body.contact_id, eventData, actor));
    return { data: execution };
  }
}

