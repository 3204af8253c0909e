import { DateTime, IANAZone } from 'luxon';
import { BookingValidationError } from './bookings.errors';
import { Calendar, parseWallClock } from './calendar';

/**
 * Time rules of a booking (public-api-v1 › POST /v1/bookings), with luxon. Instants are UTC `Date`s;
 * wall-clock rules (availability, cadence, days ahead, daily maximum) are read in the calendar's zone,
 * so daylight-saving shifts move the UTC instants of slots, never their local times.
 */

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;

/**
 * `start_datetime`: an ISO 8601 date and time; without an offset it is read as UTC. Throws 400
 * `validation_error` `{ field: 'start_datetime', reason: 'invalid_datetime' }` otherwise.
 */
export function parseStartDatetime(raw: string): Date {
  const parsed = ISO_DATETIME.test(raw) ? DateTime.fromISO(raw, { zone: 'utc' }) : null;
  if (!parsed || !parsed.isValid) {
    throw new BookingValidationError('start_datetime', 'invalid_datetime', 'start_datetime must be an ISO 8601 date and time, e.g. 2027-03-15T14:00:00Z.');
  }
  return parsed.toJSDate();
}

/** An IANA zone name (`America/Vancouver`, `UTC`); bare offsets (`+05:00`, `UTC+5`, `-0500`) are refused. */
export function isIanaZoneName(value: string): boolean {
  if (/^[+-]/.test(value) || /^(utc|gmt)\s*[+-]/i.test(value) || /^\d/.test(value)) return false;
  return IANAZone.isValidZone(value);
}

/** `timezone` of the request: null or an IANA name; else 400 `validation_error` `{ field: 'timezone', reason: 'invalid_timezone' }`. */
export function checkRequestTimezone(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (!isIanaZoneName(value)) {
    throw new BookingValidationError('timezone', 'invalid_timezone', 'timezone must be an IANA time zone name such as America/Montreal (bare offsets are refused).');
  }
  return value;
}

/** The availability window of the calendar (in its zone) that contains `start`, as instants; null when none. */
export function windowContaining(calendar: Calendar, start: Date): { start: DateTime; end: DateTime } | null {
  const local = DateTime.fromJSDate(start, { zone: calendar.timezone });
  const day = { year: local.year, month: local.month, day: local.day };
  for (const window of calendar.availability) {
    if (window.weekday !== local.weekday) continue;
    const from = parseWallClock(window.start);
    const to = parseWallClock(window.end);
    if (from === null || to === null) continue;
    const windowStart = atWallClock(day, from, calendar.timezone);
    const windowEnd = atWallClock(day, to, calendar.timezone);
    if (local >= windowStart && local < windowEnd) return { start: windowStart, end: windowEnd };
  }
  return null;
}

/** The instant of a wall-clock time of a local date (a time skipped by a spring-forward reads one hour later). */
function atWallClock(day: { year: number; month: number; day: number }, minutes: number, zone: string): DateTime {
  const midnight = DateTime.fromObject(day, { zone });
  if (minutes === 24 * 60) return midnight.plus({ days: 1 });
  return DateTime.fromObject({ ...day, hour: Math.floor(minutes / 60), minute: minutes % 60 }, { zone });
}

/** Wall-clock minutes since midnight of an instant in a zone (the second 01:30 of a fall-back night reads 90 too). */
function wallMinutes(instant: DateTime): number {
  return instant.hour * 60 + instant.minute;
}

/**
 * The booking window and cadence, in order: 400 `slot_in_past` (start at or before now), `outside_window`
 * (sooner than `min_notice_minutes` from now, or on a local date more than `max_days_ahead` days after
 * today in the calendar's zone), `off_cadence` (seconds or milliseconds set, or the wall-clock start is not
 * a multiple of `slot_interval_minutes` after the start of the availability window holding it). All with
 * `details.field` `start_datetime`. A start in no availability window is left to the hours rule (422).
 */
export function checkBookingWindow(calendar: Calendar, start: Date, now: Date): void {
  const fail = (reason: string, message: string): never => {
    throw new BookingValidationError('start_datetime', reason, message);
  };
  if (start.getTime() <= now.getTime()) fail('slot_in_past', 'start_datetime is in the past.');
  if (start.getTime() < now.getTime() + calendar.minNoticeMinutes * 60_000) {
    fail('outside_window', `start_datetime must be at least ${calendar.minNoticeMinutes} minutes from now.`);
  }
  const today = DateTime.fromJSDate(now, { zone: calendar.timezone }).startOf('day');
  const day = DateTime.fromJSDate(start, { zone: calendar.timezone }).startOf('day');
  if (Math.round(day.diff(today, 'days').days) > calendar.maxDaysAhead) {
    fail('outside_window', `start_datetime must be at most ${calendar.maxDaysAhead} days ahead.`);
  }
  const local = DateTime.fromJSDate(start, { zone: calendar.timezone });
  if (local.second !== 0 || local.millisecond !== 0) fail('off_cadence', 'start_datetime must fall on a whole minute of the calendar cadence.');
  const window = windowContaining(calendar, start);
  if (window) {
    const offset = wallMinutes(local) - wallMinutes(window.start);
    if (offset % calendar.slotIntervalMinutes !== 0) {
      fail('off_cadence', `start_datetime must be a multiple of ${calendar.slotIntervalMinutes} minutes after the start of the availability window.`);
    }
  }
}

/**
 * Weekly hours: `outside_hours` when no availability window of the start's weekday holds the start,
 * `outside_window` when one does but the session (start + duration, in real minutes) ends after it closes.
 */
export function hoursCauses(calendar: Calendar, start: Date): ('outside_hours' | 'outside_window')[] {
  const window = windowContaining(calendar, start);
  if (!window) return ['outside_hours'];
  const end = start.getTime() + calendar.durationMinutes * 60_000;
  return end > window.end.toMillis() ? ['outside_window'] : [];
}

/** The local day (calendar zone) holding `start`, as UTC instants `[from, to)` (23 or 25 hours on DST days). */
export function localDay(calendar: Calendar, start: Date): { from: Date; to: Date } {
  const day = DateTime.fromJSDate(start, { zone: calendar.timezone }).startOf('day');
  return { from: day.toJSDate(), to: day.plus({ days: 1 }).toJSDate() };
}

/** `start` + the calendar's duration. */
export function endOf(calendar: Calendar, start: Date): Date {
  return new Date(start.getTime() + calendar.durationMinutes * 60_000);
}

/** A human date for notifications, in `zone` (e.g. `lundi 15 mars 2027, 10:00 (America/Montreal)`). */
export function formatLocal(instant: Date, zone: string): string {
  return `${DateTime.fromJSDate(instant, { zone }).setLocale('fr-CA').toFormat("cccc d LLLL yyyy, HH:mm")} (${zone})`;
}
