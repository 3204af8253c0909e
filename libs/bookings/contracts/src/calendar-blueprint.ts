import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/**
 * Types of a calendar's booking questions and the `form_responses[<id>].value` each accepts:
 * `text` a string (1 to 5000 characters), `number` a finite number, `select` one of `options`,
 * `multi_select` a non-empty list of distinct `options`.
 */
export const QUESTION_TYPES = ['text', 'number', 'select', 'multi_select'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** A question asked when booking (`details.questions` of a 400 shows them in this shape). */
export interface CalendarQuestionSpec {
  /** Key of `form_responses`: 1 to 64 of `[A-Za-z0-9_-]`, unique in the calendar. */
  id: string;
  label: string;
  type: QuestionType;
  required: boolean;
  /** Options of `select` and `multi_select` (required, non-empty), null for the other types. */
  options: string[] | null;
}

/** One weekly availability window in the calendar's zone: `weekday` 1 (Monday) to 7 (Sunday), `HH:MM` wall-clock times, `end` may be `24:00`. */
export interface AvailabilityWindowSpec {
  weekday: number;
  start: string;
  end: string;
}

/**
 * One item of the blueprint's `calendars` member (operator-api › POST /admin/v1/accounts). Durations in
 * minutes; `max_days_ahead` in calendar days of the calendar's zone; `daily_max` counts a host's
 * sessions (distinct start times) per local day, null = unlimited; `capacity` is the number of seats of
 * one session (group sessions above 1). `hosts` are team member emails (any case).
 */
export interface CalendarSpec {
  name: string;
  durationMinutes: number;
  /** Cadence of start times; defaults to the duration. */
  slotIntervalMinutes?: number | null;
  minNoticeMinutes?: number | null;
  maxDaysAhead?: number | null;
  dailyMax?: number | null;
  capacity?: number | null;
  /** IANA zone; defaults to the account's zone. */
  timezone?: string | null;
  hosts?: string[];
  availability?: AvailabilityWindowSpec[];
  questions?: CalendarQuestionSpec[];
  requiresQualifiedLead?: boolean;
  isActive?: boolean;
  /** Copied to each booking's `meeting_link` (a video-call room or address URL); null when absent. */
  meetingLink?: string | null;
}

/**
 * Creates the blueprint's calendars in the caller's transaction and answers `{ <name>: <id> }`.
 * 400 `validation_error` with array details: `calendars[i].hosts[j]` reason `not_found_in_tenant`
 * (no team member of the account has that email), `calendars[i].name` reason `duplicate`,
 * `calendars[i].questions[k].id` reason `duplicate`, `calendars[i].availability[k]` reason `invalid_value`
 * (start not before end), `calendars[i].questions[k].options` reason `required`.
 */
export class ProvisionCalendarsCommand extends Command<Record<string, string>> {
  constructor(
    readonly accountId: AccountId,
    readonly calendars: readonly CalendarSpec[],
  ) {
    super();
  }
}
