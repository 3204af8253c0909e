import { Body, Controller, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { EventRegistrationView } from '@leadflow/events-contracts';
import { UpdateRegistrationCommand } from '@leadflow/events-core';
import { Actor, asAccountId, isUuid, ResourceNotFoundError, ValidationFailedError } from '@leadflow/shared-kernel';
import { CurrentOperatorActor } from '@leadflow/shared-platform';
import { UpdateEventRegistrationDto } from './dto/event-registration.dto';

/**
 * Operator API: what a registered person did outside the public API (declined to attend, opted out of
 * messages), so that POST /v1/event-registrations can re-register a decliner and keep an opt-out.
 */
@Controller('admin/v1/accounts/:account_id/event-registrations')
export class EventRegistrationsAdminController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * `PATCH …/event-registrations/{registration_id}` with `status` (`registered` | `declined`) and/or
   * `opted_out` (boolean): 200 `{ data: <registration> }`; 404 `not_found` for a missing registration
   * or another account's (ids that are not UUIDs alike); 400 `validation_error` for an empty body.
   */
  @Patch(':registration_id')
  async update(
    @Param('account_id') accountId: string,
    @Param('registration_id') registrationId: string,
    @Body() body: UpdateEventRegistrationDto,
    @CurrentOperatorActor() actor: Actor,
  ): Promise<{ data: EventRegistrationView }> {
    if (!isUuid(accountId) || !isUuid(registrationId)) throw new ResourceNotFoundError('not_found', 'No such event registration.', { resource: 'event_registration' });
    if (body.status === undefined && body.opted_out === undefined) {
      throw new ValidationFailedError([{ field: '', reason: 'required', message: 'Send status and/or opted_out.' }]);
    }
    const data = await this.commands.execute(
      new UpdateRegistrationCommand(asAccountId(accountId.toLowerCase()), registrationId.toLowerCase(), { status: body.status, optedOut: body.opted_out }, actor),
    );
    return { data };
  }
}
