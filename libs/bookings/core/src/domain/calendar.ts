import type { AvailabilityWindowSpec, CalendarQuestionSpec } from '@leadflow/bookings-contracts';

/**
 * A calendar (public-api-v1 calls it an event type: `event_type_id`) as the booking rules read it.
 * Minutes for durations; `timezone` is the IANA zone its availability is written in.
 */
export interface Calendar {
  id: string;
  accountId: string;
  name: string;
  durationMinutes: number;
  slotIntervalMinutes: number;
  minNoticeMinutes: number;
  maxDaysAhead: number;
  /** Sessions (distinct start times) per host per local day; null = unlimited. */
  dailyMax: number | null;
  /** Seats of one session. */
  capacity: number;
  timezone: string;
  availability: AvailabilityWindowSpec[];
  questions: CalendarQuestionSpec[];
  requiresQualifiedLead: boolean;
  isActive: boolean;
  meetingLink: string | null;
  /** Team member ids, sorted. */
  hostIds: string[];
}

/** `HH:MM` (00:00 to 24:00) → minutes since midnight, or null when malformed. */
export function parseWallClock(value: string): number | null {
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(value);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes <= 24 * 60 ? minutes : null;
}
