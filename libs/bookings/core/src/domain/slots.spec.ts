import { DomainError } from '@leadflow/shared-kernel';
import type { Calendar } from './calendar';
import { checkBookingWindow, checkRequestTimezone, hoursCauses, localDay, parseStartDatetime } from './slots';

const calendar = (overrides: Partial<Calendar> = {}): Calendar => ({
  id: 'c',
  accountId: 'a',
  name: 'Nuit',
  durationMinutes: 30,
  slotIntervalMinutes: 30,
  minNoticeMinutes: 0,
  maxDaysAhead: 365,
  dailyMax: null,
  capacity: 1,
  timezone: 'America/Montreal',
  availability: [{ weekday: 7, start: '00:00', end: '06:00' }],
  questions: [],
  requiresQualifiedLead: false,
  isActive: true,
  meetingLink: null,
  hostIds: ['h'],
  ...overrides,
});

const reasonOf = (work: () => unknown): string | null => {
  try {
    work();
    return null;
  } catch (error) {
    return ((error as DomainError).details as { reason: string }).reason;
  }
};

const NOW = new Date('2027-03-01T12:00:00Z');

describe('booking time rules (luxon, calendar zone)', () => {
  it('start_datetime without offset is UTC; with an offset it is that instant; anything else is invalid_datetime', () => {
    expect(parseStartDatetime('2027-03-14T07:00:00').toISOString()).toBe('2027-03-14T07:00:00.000Z');
    expect(parseStartDatetime('2027-03-14T03:00:00-04:00').toISOString()).toBe('2027-03-14T07:00:00.000Z');
    for (const raw of ['2027-03-14', '14/03/2027 07:00', '2027-02-30T10:00:00Z', '']) expect(reasonOf(() => parseStartDatetime(raw))).toBe('invalid_datetime');
  });

  it('timezone: IANA names or null; bare offsets are invalid_timezone', () => {
    expect(checkRequestTimezone('Europe/Paris')).toBe('Europe/Paris');
    expect(checkRequestTimezone(null)).toBeNull();
    for (const zone of ['+05:00', '-05', 'UTC+5', 'GMT-04:00', 'Nowhere/City']) expect(reasonOf(() => checkRequestTimezone(zone))).toBe('invalid_timezone');
  });

  it('spring forward: 01:30 EST and 03:00 EDT are consecutive slots, 03:15 EDT is off_cadence, 06:00 EDT is outside the hours', () => {
    expect(reasonOf(() => checkBookingWindow(calendar(), new Date('2027-03-14T06:30:00Z'), NOW))).toBeNull();
    expect(reasonOf(() => checkBookingWindow(calendar(), new Date('2027-03-14T07:00:00Z'), NOW))).toBeNull();
    expect(reasonOf(() => checkBookingWindow(calendar(), new Date('2027-03-14T07:15:00Z'), NOW))).toBe('off_cadence');
    expect(hoursCauses(calendar(), new Date('2027-03-14T09:30:00Z'))).toEqual([]);
    expect(hoursCauses(calendar(), new Date('2027-03-14T10:00:00Z'))).toEqual(['outside_hours']);
  });

  it('fall back: the local day lasts 25 hours and both 01:30 are slots', () => {
    const day = localDay(calendar(), new Date('2027-11-07T12:00:00Z'));
    expect(day.to.getTime() - day.from.getTime()).toBe(25 * 3600_000);
    for (const start of ['2027-11-07T05:30:00Z', '2027-11-07T06:30:00Z', '2027-11-07T10:30:00Z']) {
      expect(reasonOf(() => checkBookingWindow(calendar(), new Date(start), new Date('2027-10-20T12:00:00Z')))).toBeNull();
      expect(hoursCauses(calendar(), new Date(start))).toEqual([]);
    }
    expect(hoursCauses(calendar(), new Date('2027-11-07T11:00:00Z'))).toEqual(['outside_hours']);
  });

  it('window: slot_in_past, then min notice and max days ahead (calendar days in the zone) are outside_window', () => {
    const weekdays = calendar({ availability: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '17:00' })), minNoticeMinutes: 120, maxDaysAhead: 1 });
    expect(reasonOf(() => checkBookingWindow(weekdays, new Date('2027-03-01T12:00:00Z'), NOW))).toBe('slot_in_past');
    expect(reasonOf(() => checkBookingWindow(weekdays, new Date('2027-03-01T13:30:00Z'), NOW))).toBe('outside_window');
    expect(reasonOf(() => checkBookingWindow(weekdays, new Date('2027-03-02T21:30:00Z'), NOW))).toBeNull(); // 16:30 on day 1
    expect(reasonOf(() => checkBookingWindow(weekdays, new Date('2027-03-03T14:00:00Z'), NOW))).toBe('outside_window'); // day 2
    expect(hoursCauses({ ...weekdays, durationMinutes: 60 }, new Date('2027-03-02T21:30:00Z'))).toEqual(['outside_window']);
  });
});
