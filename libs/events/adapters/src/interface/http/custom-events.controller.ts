import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { CustomEventIngested, IngestCustomEventCommand } from '@leadflow/events-core';
import { CurrentActor, CurrentKey, IpLimit, KeyLimit, RequireScope } from '@leadflow/shared-platform';
import type { Actor } from '@leadflow/shared-kernel';
import { CustomEventDto } from './dto/custom-event.dto';
import { ServiceSignatureGuard } from './service-signature.guard';

/** public-api-v1 › Limits: 120 requests per minute per IP address on POST /v1/events. */
export const EVENTS_IP_LIMIT = { name: 'events_ingest', perMinute: 120, code: 'rate_limited_ip', simplified: true } as const;

/** public-api-v1 › Limits: 60 requests per minute per key on POST /v1/events, adjustable per key (`events_per_minute`). */
export const EVENTS_KEY_LIMIT = { name: 'events_ingest', perMinute: (key: ApiKeyPrincipal) => key.eventsPerMinute } as const;


/** `/v1/events` (public-api-v1 › Endpoints › Events › POST /v1/events). */
@Controller('v1/events')
export class CustomEventsController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * 200 `{ status: 'ingested', enrolled_executions, contact_archived? }` at the top level. In order:
   * key, per-IP limit (429 `rate_limited_ip`, simplified, `X-RateLimit-Scope: ip`), per-key minute
   * limit (429 `rate_limit_exceeded` `per_key`), hourly quota, scope `events:ingest`, body parsing,
   * then the optional signature (401 `invalid_signature`), a body nested deeper than 32 levels (400
   * `validation_error` `too_deep`), Idempotency-Key (24 h; 409
   * `idempotency_conflict`), the DTO (400) and the handler.
   */
  @Post()
  @HttpCode(200)
  @RequireScope('events:ingest')
  @IpLimit(EVENTS_IP_LIMIT)
  @KeyLimit(EVENTS_KEY_LIMIT)
  @UseGuards(ServiceSignatureGuard)
  ingest(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Body() body: CustomEventDto): Promise<CustomEventIngested> {
    return this.commands.execute(
      new IngestCustomEventCommand(
        key.accountId,
        {
          event: body.event,
          contact: {
            externalId: body.contact.external_id ?? null,
            externalSource: body.contact.external_source ?? null,
            email: body.contact.email ?? null,
            phone: body.contact.phone ?? null,
            firstName: body.contact.first_name ?? null,
            createIfMissing: body.contact.create_if_missing ?? true,
          },
          payload: body.payload ?? {},
          customFields: body.custom_fields ?? {},
          sourceLabel: body.source_label ?? null,
        },
        actor,
        key.keyId,
      ),
    );
  }
}
