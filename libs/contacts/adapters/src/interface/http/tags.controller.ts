import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import type { TagView } from '@leadflow/contacts-contracts';
import { CreateTagCommand, ListTagsQuery } from '@leadflow/contacts-core';
import { Actor, InvalidRequestError, Page } from '@leadflow/shared-kernel';
import { CurrentActor, CurrentKey, readPageRequest, RequireScope, stringParam } from '@leadflow/shared-platform';
import { decodeNameCursor } from '../../infrastructure/persistence/name-cursor';
import { CreateTagDto } from './dto/tag.dto';

/** `/v1/tags` (public-api-v1 › Tags). */
@Controller('v1/tags')
export class TagsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Sort `name ASC, id ASC`; `limit` 1–100 (default 20) and an opaque `cursor`, else 400 `invalid_request`. */
  @Get()
  @RequireScope('tags:read')
  list(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<Page<TagView>> {
    const { limit } = readPageRequest({ limit: query.limit });
    const cursor = stringParam(query, 'cursor');
    const after = cursor ? decodeNameCursor(cursor) : null;
    if (cursor && !after) throw new InvalidRequestError('cursor', 'invalid_format', 'cursor is not a cursor returned by this API.');
    return this.queries.execute(new ListTagsQuery(key.accountId, { limit, after }));
  }

  /** 201 `{ data: tag }`. Errors: see CreateTagHandler. */
  @Post()
  @RequireScope('tags:write')
  async create(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Body() body: CreateTagDto): Promise<{ data: TagView }> {
    return { data: await this.commands.execute(new CreateTagCommand(key.accountId, body, actor)) };
  }
}
