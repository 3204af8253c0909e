import { DateTime } from 'luxon';

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written `YYYY-MM-DD` (`2026-02-30` is refused). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const date = DateTime.fromObject({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }, { zone: 'UTC' });
  return date.isValid;
}

/** The calendar date (`YYYY-MM-DD`) of `instant` in the IANA zone `zone` (America/Montreal when the zone is unknown). */
export function localDate(instant: Date, zone: string): string {
  const local = DateTime.fromJSDate(instant, { zone });
  return (local.isValid ? local : DateTime.fromJSDate(instant, { zone: 'America/Montreal' })).toISODate() as string;
}

/** The local year of `instant` in `zone` (the `<YYYY>` of a quote number). */
export function localYear(instant: Date, zone: string): number {
  return Number(localDate(instant, zone).slice(0, 4));
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() as string;
}
