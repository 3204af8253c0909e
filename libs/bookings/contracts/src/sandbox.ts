import { Command, Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { CalendarSpec } from './calendar-blueprint';

/** A calendar as configured: the blueprint item, with its hosts as team member ids (`hostIds`; `hosts` is empty). */
export interface ExportedCalendar extends CalendarSpec {
  hostIds: string[];
}

/** Test mode (issue 15, item 4): the account's calendars, to copy into its sandbox. Never bookings. */
export class ExportCalendarsQuery extends Query<ExportedCalendar[]> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}

/**
 * Test mode: deletes the (sandbox) account's bookings and their host calendar entries in the caller's
 * transaction; keeps calendars and hosts' blocked times. Answers rows deleted per table.
 */
export class ResetBookingsDataCommand extends Command<Record<string, number>> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}
