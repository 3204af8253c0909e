import { Module } from '@nestjs/common';
import { BOOKINGS_HANDLERS } from '@leadflow/bookings-core';
import { BOOKINGS_PROVIDERS } from './bookings-persistence.providers';
import { BookingsController } from './interface/http/bookings.controller';

/** The bookings context for the api app: `/v1/bookings` and the published commands (calendars of a blueprint, booking outcome). */
@Module({
  controllers: [BookingsController],
  providers: [...BOOKINGS_HANDLERS, ...BOOKINGS_PROVIDERS],
})
export class BookingsHttpModule {}
