import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import type { DealView, PipelineStageView } from '@leadflow/pipeline-contracts';
import { ListDealsQuery, ListPipelineStagesQuery, MoveDealCommand, PlaceDealCommand, RemoveDealCommand } from '@leadflow/pipeline-core';
import { Actor, InvalidRequestError, isUuid, Page } from '@leadflow/shared-kernel';
import { CurrentActor, CurrentKey, readPageRequest, RequireScope, stringParam } from '@leadflow/shared-platform';
import { MoveDealDto, PlaceDealDto } from './dto/deal.dto';

/**
 * `/v1/pipeline` (public-api-v1 › Endpoints › Pipeline): stages with their real-time contact counts,
 * and deals (a deal is a contact whose stage is set; `{id}` is the contact's id). A non-UUID, missing,
 * merged or other account's `{id}` answers 404 `not_found` alike.
 */
@Controller('v1/pipeline')
export class PipelineController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Every stage of every pipeline, dashboard order then `stage_order`; unpaginated `pagination`. */
  @Get('stages')
  @RequireScope('pipeline:read')
  stages(@CurrentKey() key: ApiKeyPrincipal): Promise<Page<PipelineStageView>> {
    return this.queries.execute(new ListPipelineStagesQuery(key.accountId));
  }

  /**
   * Deals, `created_at DESC, id DESC`, `cursor`/`limit` (400 `invalid_request` `details.field` `limit` or
   * `cursor`); `stage_id` exact (a UUID, else 400 `invalid_request` `details.field` `stage_id`).
   */
  @Get('deals')
  @RequireScope('pipeline:read')
  deals(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<Page<DealView>> {
    const page = readPageRequest(query);
    const stageId = stringParam(query, 'stage_id') || null;
    if (stageId !== null && !isUuid(stageId)) throw new InvalidRequestError('stage_id', 'invalid_format', 'stage_id must be the id (UUID) of a stage.');
    return this.queries.execute(new ListDealsQuery(key.accountId, { stageId: stageId ? stageId.toLowerCase() : null, page }));
  }

  /** 201 `{ data: deal }`. Errors: see PlaceDealHandler. */
  @Post('deals')
  @RequireScope('pipeline:write')
  async place(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Body() body: PlaceDealDto): Promise<{ data: DealView }> {
    return { data: await this.commands.execute(new PlaceDealCommand(key.accountId, body.contact_id, body.stage_id, actor)) };
  }

  /** 200 `{ data: deal }`. Errors: see MoveDealHandler. */
  @Patch('deals/:id')
  @RequireScope('pipeline:write')
  async move(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: MoveDealDto): Promise<{ data: DealView }> {
    return { data: await this.commands.execute(new MoveDealCommand(key.accountId, id, body.stage_id, actor)) };
  }

  /** 200 `{ data: deal }` with `pipeline_id` and `stage_id` null; the contact is kept. */
  @Delete('deals/:id')
  @HttpCode(200)
  @RequireScope('pipeline:write')
  async remove(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<{ data: DealView }> {
    return { data: await this.commands.execute(new RemoveDealCommand(key.accountId, id, actor)) };
  }
}
