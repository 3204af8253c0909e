import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { RedeliverWebhookDeliveryCommand, WebhookRedelivery } from '@leadflow/webhooks-contracts';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { Actor, isUuid, Page } from '@leadflow/shared-kernel';
import { CurrentActor, CurrentKey, readPageRequest, RequireFeature, RequireScope } from '@leadflow/shared-platform';
import {
  CreatedWebhookSubscription,
  CreateWebhookSubscriptionCommand,
  DeleteWebhookSubscriptionCommand,
  GetWebhookDeliveryQuery,
  ListPublicWebhookDeliveriesQuery,
  ListWebhookEventSamplesQuery,
  ListWebhookSubscriptionsQuery,
  PublicDeliveryView,
  RotatedWebhookSecret,
  RotateWebhookSecretCommand,
  WebhookDeliveryNotFoundError,
  WebhookPayload,
  WebhookSubscriptionNotFoundError,
  WebhookSubscriptionView,
} from '@leadflow/webhooks-core';
import { CreateWebhookDto } from './dto/create-webhook.dto';

/** A path id that is not a UUID answers like a missing resource (404). */
function subscriptionIdOf(id: string): string {
  if (!isUuid(id)) throw new WebhookSubscriptionNotFoundError();
  return id.toLowerCase();
}

/**
 * `/v1/webhooks` and `/v1/webhook-events` (public-api-v1 › Endpoints › Webhooks), scope
 * `webhooks:manage`, plan module `webhooks`. Subscriptions are scoped to the calling key: another key's
 * or another account's subscription (or delivery) answers 404 `not_found` like a missing one.
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
  async create(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Body() body: CreateWebhookDto): Promise<{ data: CreatedWebhookSubscription }> {
    return { data: await this.commands.execute(new CreateWebhookSubscriptionCommand(key.accountId, key.keyId, actor, body.url, body.events)) };
  }

  /** 204; 404 `not_found` for a missing id, a non-UUID, another key's or another account's subscription. */
  @Delete('webhooks/:id')
  @RequireScope('webhooks:manage')
  @HttpCode(204)
  async remove(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.commands.execute(new DeleteWebhookSubscriptionCommand(key.accountId, key.keyId, actor, subscriptionIdOf(id)));
  }

  /** 200 `{ data: { id, secret, previous_secret_expires_at } }`: the new secret, once; the old one signs too for 24 h. 404 `not_found`. */
  @Post('webhooks/:id/rotate-secret')
  @RequireScope('webhooks:manage')
  @HttpCode(200)
  async rotateSecret(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<{ data: RotatedWebhookSecret }> {
    return { data: await this.commands.execute(new RotateWebhookSecretCommand(key.accountId, key.keyId, actor, subscriptionIdOf(id))) };
  }

  /**
   * 200 `{ data: [delivery…], pagination }`: the subscription's deliveries newest first (keyset `cursor`,
   * `limit` 1–100), filters `status`, `event`, `from`, `to` (400 `validation_error`); 404 `not_found`.
   */
  @Get('webhooks/:id/deliveries')
  @RequireScope('webhooks:manage')
  deliveries(@CurrentKey() key: ApiKeyPrincipal, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<Page<PublicDeliveryView>> {
    const subscriptionId = subscriptionIdOf(id);
    const page = readPageRequest(query);
    const filter = ListPublicWebhookDeliveriesQuery.readFilter(query);
    return this.queries.execute(new ListPublicWebhookDeliveriesQuery(key.accountId, key.keyId, subscriptionId, filter, page));
  }

  /** 200 `{ data: delivery }` with every attempt; 404 `not_found` (`webhook` or `webhook_delivery`). */
  @Get('webhooks/:id/deliveries/:delivery_id')
  @RequireScope('webhooks:manage')
  async delivery(@CurrentKey() key: ApiKeyPrincipal, @Param('id') id: string, @Param('delivery_id') deliveryId: string): Promise<{ data: PublicDeliveryView }> {
    const subscriptionId = subscriptionIdOf(id);
    if (!isUuid(deliveryId)) throw new WebhookDeliveryNotFoundError();
    return { data: await this.queries.execute(new GetWebhookDeliveryQuery(key.accountId, key.keyId, subscriptionId, deliveryId.toLowerCase())) };
  }

  /**
   * 202 `{ data: { delivery_id, subscription_id, status: 'pending', requested_at } }`: a new attempt now
   * (same `webhook-id`); 404 `not_found`; 422 `business_rule_violation` `webhook_disabled`.
   */
  @Post('webhooks/:id/deliveries/:delivery_id/redeliver')
  @RequireScope('webhooks:manage')
  @HttpCode(202)
  async redeliver(
    @CurrentKey() key: ApiKeyPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
  ): Promise<{ data: WebhookRedelivery }> {
    const subscriptionId = subscriptionIdOf(id);
    if (!isUuid(deliveryId)) throw new WebhookDeliveryNotFoundError();
    return {
      data: await this.commands.execute(
        new RedeliverWebhookDeliveryCommand(key.accountId, deliveryId.toLowerCase(), { subscriptionId, apiKeyId: key.keyId }, actor),
      ),
    };
  }

  /** 200 `{ data: [payload…], pagination }`: samples newest first; 400 `validation_error` (`event`, `limit`). */
  @Get('webhook-events')
  @RequireScope('webhooks:manage')
  events(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<Page<WebhookPayload>> {
    return this.queries.execute(ListWebhookEventSamplesQuery.fromRequest(key.accountId, query));
  }
}
