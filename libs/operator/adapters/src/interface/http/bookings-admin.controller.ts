import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IsDefined, IsIn, IsString, MaxLength } from 'class-validator';
import {
  BOOKING_OUTCOMES,
  BookingOutcome,
  BookingView,
  HOST_BUSY_KINDS,
  HostBusyKind,
  HostBusyTimeView,
  RecordHostBusyTimeCommand,
  SetBookingOutcomeCommand,
} from '@leadflow/bookings-contracts';
import { Actor, asAccountId } from '@leadflow/shared-kernel';
import { CurrentOperatorActor } from '@leadflow/shared-platform';
import { accountIdParam } from './uuid-or-404.pipe';

/** Body of `outcome`: `status` one of `completed`, `no_show` (400 `validation_error` otherwise). */
export class BookingOutcomeDto {
  @IsDefined() @IsIn(BOOKING_OUTCOMES) status!: BookingOutcome;
}

/**
 * `POST /admin/v1/accounts/{account_id}/bookings/{booking_id}/outcome` (operator-api › Further operator
 * endpoints): 200 `{ data: booking }` for any confirmed booking, whether its start has passed or not; the
 * same outcome again is 200 without a write, the other outcome corrects the first. Rules and refusals:
 * the bookings context's SetBookingOutcomeCommand (404 `resource_not_found`, 422 `business_rule_violation`
 * reason `already_cancelled`).
 */
@Controller('admin/v1/accounts/:account_id/bookings/:booking_id')
export class BookingsAdminController {
  constructor(private readonly commands: CommandBus) {}

  @Post('outcome')
  @HttpCode(200)
  async outcome(
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('booking_id') bookingId: string,
    @Body() body: BookingOutcomeDto,
    @CurrentOperatorActor() actor: Actor,
  ): Promise<{ data: BookingView }> {
    return { data: await this.commands.execute(new SetBookingOutcomeCommand(asAccountId(accountId), bookingId, body.status, actor)) };
  }
}

/** Body of `busy-times`: the host (a host of the calendar), `kind` and the period (ISO 8601, UTC without offset). */
export class HostBusyTimeDto {
  @IsDefined() @IsString() @MaxLength(64) host_id!: string;
  @IsDefined() @IsIn(HOST_BUSY_KINDS) kind!: HostBusyKind;
  @IsDefined() @IsString() @MaxLength(64) start_datetime!: string;
  @IsDefined() @IsString() @MaxLength(64) end_datetime!: string;
}

/**
 * `POST /admin/v1/accounts/{account_id}/calendars/{calendar_id}/busy-times`: records a blocked time or an
 * external-calendar busy time of a host of the calendar (the bookings context's ExternalCalendarPort;
 * what a calendar sync would push). 201 `{ data: busy time }`. Refusals: see RecordHostBusyTimeCommand.
 */
@Controller('admin/v1/accounts/:account_id/calendars/:calendar_id')
export class CalendarsAdminController {
  constructor(private readonly commands: CommandBus) {}

  @Post('busy-times')
  async busyTime(
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('calendar_id') calendarId: string,
    @Body() body: HostBusyTimeDto,
  ): Promise<{ data: HostBusyTimeView }> {
    return {
      data: await this.commands.execute(
        new RecordHostBusyTimeCommand(asAccountId(accountId), calendarId, body.host_id, body.kind, body.start_datetime, body.end_datetime),
      ),
    };
  }
}
