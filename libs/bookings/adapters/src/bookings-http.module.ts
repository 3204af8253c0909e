import { Module } from '@nestjs/common';

/** The bookings context's controllers and handlers, imported by the api app. */
@Module({})
export class BookingsHttpModule {}
