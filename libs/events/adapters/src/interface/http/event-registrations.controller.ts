import { Body, Controller, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import type { EventRegistrationView } from '@leadflow/events-contracts';
import { RegisterForEventCommand } from '@leadflow/events-core';
import { CurrentActor, CurrentKey, RequireFeature, RequireScope } from '@leadflow/shared-platform';
import { Actor, ValidationFailedError } from '@leadflow/shared-kernel';
import { EventRegistrationDto } from './dto/event-registration.dto';

/** `/v1/event-registrations` (public-api-v1 › Endpoints › Events › POST /v1/event-registrations). */
@Controller('v1/event-registrations')
export class EventRegistrationsController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * 201 `{ data, created: true }` for a first registration, 200 `{ data, created: false }` for a
   * repeat. Scope `contacts:write` and the plan's `events_module` (403). Exactly one of `event_id` /
   * `event_slug`: both → 400 `validation_error` reason `exclusive_field` on each; neither → reason
   * `required` on each; a body nested deeper than 32 levels: 400 `too_deep`. Other rules:
   * RegisterForEventHandler.
   */
  @Post()
  @RequireScope('contacts:write')
  @RequireFeature('events_module')
  async register(
    @CurrentKey() key: ApiKeyPrincipal,
    @CurrentActor() actor: Actor,
    @Body() body: EventRegistrationDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: EventRegistrationView; created: boolean }> {
    const eventId = body.event_id ?? null;
    const eventSlug = body.event_slug ?? null;
    if ((eventId === null) === (eventSlug === null)) {
      const reason = eventId === null ? 'required' : 'exclusive_field';
      const message = eventId === null ? 'Send one of event_id or event_slug.' : 'Send event_id or event_slug, not both.';
      throw new ValidationFailedError([
        { field: 'event_id', reason, message },
        { field: 'event_slug', reason, message },
      ]);
    }
    const outcome = await this.commands.execute(
      new RegisterForEventCommand(
        key.accountId,
        { contactId: body.contact_id, eventId, eventSlug, editionId: body.edition_id ?? null, language: body.language ?? null },
        actor,
      ),
    );
    void reply.status(outcome.created ? 201 : 200);
    return { data: outcome.registration, created: outcome.created };
  }
}
