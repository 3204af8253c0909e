import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { InvalidRequestError, Page } from '@leadflow/shared-kernel';
import { CurrentKey, readPageRequest, RequireFeature, RequireScope } from '@leadflow/shared-platform';
import {
  ConversationMessageView,
  ConversationView,
  GetConversationQuery,
  ListConversationMessagesQuery,
  ListConversationsQuery,
} from '@leadflow/messaging-contracts';

/** Longest filter value accepted (the stored values are at most 200 characters). */
const FILTER_MAX_LENGTH = 200;

/** A filter given once, 1 to 200 characters; null when absent. Else 400 `invalid_request` with `details.field`. */
function filterParam(query: Record<string, unknown>, field: string): string | null {
  const value = query[field];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new InvalidRequestError(field, 'invalid_type', `${field} must be given once.`);
  if (value.length === 0 || value.length > FILTER_MAX_LENGTH) {
    throw new InvalidRequestError(field, 'invalid_value', `${field} must be 1 to ${FILTER_MAX_LENGTH} characters.`);
  }
  return value;
}

/**
 * `/v1/conversations` (public-api-v1 › Endpoints › Conversations, read-only), plan module
 * `conversations`, scope `conversations:read`. A non-UUID, missing or other account's `{id}` answers
 * 404 `resource_not_found` alike.
 */
@Controller('v1/conversations')
@RequireFeature('conversations')
export class ConversationsController {
  constructor(private readonly queries: QueryBus) {}

  /** Newest first; exact filters `agent_slug`, `agent_identity_id`, `source`; `cursor`, `limit`. */
  @Get()
  @RequireScope('conversations:read')
  list(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<Page<ConversationView>> {
    const filter = {
      agentSlug: filterParam(query, 'agent_slug'),
      agentIdentityId: filterParam(query, 'agent_identity_id'),
      source: filterParam(query, 'source'),
    };
    return this.queries.execute(new ListConversationsQuery(key.accountId, filter, readPageRequest(query)));
  }

  @Get(':id')
  @RequireScope('conversations:read')
  async get(@CurrentKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<{ data: ConversationView }> {
    return { data: await this.queries.execute(new GetConversationQuery(key.accountId, id)) };
  }

  /** Oldest first (`created_at ASC, id ASC`); `content` without pacing markers; `cursor`, `limit`. */
  @Get(':id/messages')
  @RequireScope('conversations:read')
  messages(@CurrentKey() key: ApiKeyPrincipal, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<Page<ConversationMessageView>> {
    return this.queries.execute(new ListConversationMessagesQuery(key.accountId, id, readPageRequest(query)));
  }
}
