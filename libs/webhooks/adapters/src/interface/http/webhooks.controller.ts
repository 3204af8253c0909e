import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { Actor, isUuid, Page } from '@leadflow/shared-kernel';
import { CurrentKey, RequireFeature, RequireScope } from '@leadflow/shared-platform';
import {
  CreatedWebhookSubscription,
  CreateWebhookSubscriptionCommand,
  DeleteWebhookSubscriptionCommand,
  ListWebhookEventSamplesQuery,
  ListWebhookSubscriptionsQuery,
  WebhookPayload,
  WebhookSubscriptionNotFoundError,
  WebhookSubscriptionView,
} from '@leadflow/webhooks-core';
import { CreateWebhookDto } from './dto/create-webhook.dto';

function actorOf(key: ApiKeyPrincipal): Actor {
  return { type: 'api_key', id: key.keyId, name: key.keyName, via: 'api_key' };
}

/**
 * `/v1/webhooks` and `/v1/webhook-events` (public-api-v1 › Endpoints › Webhooks), scope
 * `webhooks:manage`, plan module `webhooks`. Subscriptions are scoped to the calling key.
 */
@Controller('v1')
@RequireFeature('webhooks')
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** 200 `{ data: [{ id, url, events, created_at }], pagination }`: the calling key's subscriptions, never the secret. */
  @Get('webhooks')
  @RequireScope('webhooks:manage')
  list(@CurrentKey() key: ApiKeyPrincipal): Promise<Page<WebhookSubscriptionView>> {
    return this.queries.execute(new ListWebhookSubscriptionsQuery(key.accountId, key.keyId));
  }

  /** 201 `{ data: { id, url, events, secret, created_at } }`; 400 `validation_error`; 429 `subscription_limit_reached`. */
  @Post('webhooks')
  @RequireScope('webhooks:manage')
  async create(@CurrentKey() key: ApiKeyPrincipal, @Body() body: CreateWebhookDto): Promise<{ data: CreatedWebhookSubscription }> {
    return { data: await this.commands.execute(new CreateWebhookSubscriptionCommand(key.accountId, key.keyId, actorOf(key), body.url, body.events)) };
  }

  /** 204; 404 `not_found` for a missing id, a non-UUID, another key's or another account's subscription. */
  @Delete('webhooks/:id')
  @RequireScope('webhooks:manage')
  @HttpCode(204)
  async remove(@CurrentKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<void> {
    if (!isUuid(id)) throw new WebhookSubscriptionNotFoundError();
    await this.commands.execute(new DeleteWebhookSubscriptionCommand(key.accountId, key.keyId, actorOf(key), id.toLowerCase()));
  }

  /** 200 `{ data: [payload…], pagination }`: samples newest first; 400 `validation_error` (`event`, `limit`). */
  @Get('webhook-events')
  @RequireScope('webhooks:manage')
  events(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<Page<WebhookPayload>> {
    return this.queries.execute(ListWebhookEventSamplesQuery.fromRequest(key.accountId, query));
  }
}
