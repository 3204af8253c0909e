import { Module } from '@nestjs/common';
import { BookingsCoreModule } from './bookings-core.module';
import { BookingsController } from './interface/http/bookings.controller';

/** The bookings context for the api app: `/v1/bookings`; handlers (published commands included: calendars of a blueprint, booking outcome) and ports from BookingsCoreModule. */
@Module({
  imports: [BookingsCoreModule],
  controllers: [BookingsController],
})
export class BookingsHttpModule {}
