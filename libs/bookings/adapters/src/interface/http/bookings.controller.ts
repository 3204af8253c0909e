import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { DateTime } from 'luxon';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { BOOKING_STATUSES, BookingStatus, BookingView } from '@leadflow/bookings-contracts';
import { CancelBookingCommand, CreateBookingCommand, ListBookingsQuery } from '@leadflow/bookings-core';
import { Actor, FieldViolation, InvalidRequestError, isUuid, Page, ValidationFailedError } from '@leadflow/shared-kernel';
import { CurrentActor, CurrentKey, readPageRequest, RequireFeature, RequireScope } from '@leadflow/shared-platform';
import { CreateBookingDto } from './dto/create-booking.dto';


const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/i;

/**
 * `/v1/bookings` (public-api-v1 › Endpoints › Bookings), plan module `bookings`. A non-UUID, missing,
 * archived or other account's `{id}` answers 404 `resource_not_found` alike.
 */
@Controller('v1/bookings')
@RequireFeature('bookings')
export class BookingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /**
   * Every calendar and host, archived bookings excluded, `start_datetime DESC, id DESC`. Filters `from`,
   * `to` (ISO 8601; without offset UTC; inclusive), `status`, `event_type_id`, `contact_id`: 400
   * `validation_error` (array details) with reasons `invalid_datetime`, `invalid_value`, `invalid_format`;
   * a filter given twice, a bad `cursor` or `limit`: 400 `invalid_request`.
   */
  @Get()
  @RequireScope('bookings:read')
  list(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<Page<BookingView>> {
    const page = readPageRequest(query);
    for (const name of ['from', 'to', 'status', 'event_type_id', 'contact_id']) {
      if (query[name] !== undefined && typeof query[name] !== 'string') throw new InvalidRequestError(name, 'invalid_value', `${name} must be given once.`);
    }
    const violations: FieldViolation[] = [];
    const instant = (name: 'from' | 'to'): Date | null => {
      const raw = query[name] as string | undefined;
      if (raw === undefined) return null;
      const parsed = ISO_INSTANT.test(raw) ? DateTime.fromISO(raw, { zone: 'utc' }) : null;
      if (!parsed || !parsed.isValid) {
        violations.push({ field: name, reason: 'invalid_datetime', message: `${name} must be an ISO 8601 date or date and time.` });
        return null;
      }
      return parsed.toJSDate();
    };
    const uuid = (name: 'event_type_id' | 'contact_id'): string | null => {
      const raw = query[name] as string | undefined;
      if (raw === undefined) return null;
      if (!isUuid(raw)) violations.push({ field: name, reason: 'invalid_format', message: `${name} must be a UUID.` });
      return raw.toLowerCase();
    };
    const from = instant('from');
    const to = instant('to');
    const status = query.status as string | undefined;
    if (status !== undefined && !(BOOKING_STATUSES as readonly string[]).includes(status)) {
      violations.push({ field: 'status', reason: 'invalid_value', message: `status must be one of ${BOOKING_STATUSES.join(', ')}.` });
    }
    const calendarId = uuid('event_type_id');
    const contactId = uuid('contact_id');
    if (violations.length > 0) throw new ValidationFailedError(violations);
    return this.queries.execute(
      new ListBookingsQuery(key.accountId, { from, to, status: (status as BookingStatus | undefined) ?? null, calendarId, contactId }, page),
    );
  }

  /** 201 `{ data: booking }`. Rules and rejections: see CreateBookingHandler. Idempotency-Key honoured (platform rule of every POST). */
  @Post()
  @RequireScope('bookings:write')
  async create(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Body() body: CreateBookingDto): Promise<{ data: BookingView }> {
    const booking = await this.commands.execute(
      new CreateBookingCommand(
        key.accountId,
        {
          eventTypeId: body.event_type_id,
          startDatetime: body.start_datetime,
          contactId: body.contact_id,
          guestName: body.guest_name,
          guestEmail: body.guest_email,
          guestPhone: body.guest_phone,
          hostId: body.host_id,
          timezone: body.timezone,
          notes: body.notes,
          formResponses: body.form_responses,
        },
        actor,
      ),
    );
    return { data: booking };
  }

  /** Soft cancel: 200 `{ data: { id, status: 'cancelled', cancelled_at } }`. Rejections: see CancelBookingHandler. */
  @Delete(':id')
  @HttpCode(200)
  @RequireScope('bookings:write')
  async cancel(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<{ data: { id: string; status: 'cancelled'; cancelled_at: string } }> {
    const booking = await this.commands.execute(new CancelBookingCommand(key.accountId, id, actor));
    return { data: { id: booking.id, status: 'cancelled', cancelled_at: booking.cancelled_at as string } };
  }
}
