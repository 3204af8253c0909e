import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { FieldViolation, ValidationFailedError, newId } from '@leadflow/shared-kernel';
import { ProvisionCalendarsCommand } from '@leadflow/bookings-contracts';
import { Calendar, parseWallClock } from '../../../domain/calendar';
import { isIanaZoneName } from '../../../domain/slots';
import { BookingDirectory } from '../../ports/booking-collaborators.port';
import { CalendarRepository } from '../../ports/bookings.repository.port';

/** Defaults of an omitted blueprint value. */
const DEFAULTS = { minNoticeMinutes: 0, maxDaysAhead: 60, capacity: 1 } as const;

/**
 * Blueprint member `calendars` (operator-api › POST /admin/v1/accounts): checks every item (violations
 * collected, paths `calendars[i]…`), resolves host emails to team member ids, inserts the calendars in the
 * caller's transaction and answers `{ <name>: <id> }`. See {@link ProvisionCalendarsCommand} for the reasons.
 */
@CommandHandler(ProvisionCalendarsCommand)
export class ProvisionCalendarsHandler implements ICommandHandler<ProvisionCalendarsCommand> {
  constructor(
    private readonly calendars: CalendarRepository,
    private readonly directory: BookingDirectory,
  ) {}

  async execute({ accountId, calendars: specs }: ProvisionCalendarsCommand): Promise<Record<string, string>> {
    if (specs.length === 0) return {};
    const members = await this.directory.teamMembers(accountId);
    const byEmail = new Map(members.map((member) => [member.email.toLowerCase(), member.id]));
    const accountZone = specs.some((spec) => !spec.timezone) ? await this.directory.accountTimezone(accountId) : 'America/Montreal';
    const violations: FieldViolation[] = [];
    const names = new Set<string>();
    const created: Calendar[] = [];
    specs.forEach((spec, i) => {
      const at = `calendars[${i}]`;
      if (names.has(spec.name)) violations.push({ field: `${at}.name`, reason: 'duplicate', message: 'Calendar names are unique in a blueprint.' });
      names.add(spec.name);
      const timezone = spec.timezone ?? accountZone;
      if (!isIanaZoneName(timezone)) violations.push({ field: `${at}.timezone`, reason: 'invalid_timezone', message: 'timezone must be an IANA time zone.' });
      const hostIds: string[] = [];
      (spec.hosts ?? []).forEach((email, j) => {
        const id = byEmail.get(email.toLowerCase());
        if (!id) violations.push({ field: `${at}.hosts[${j}]`, reason: 'not_found_in_tenant', message: `No team member of the account has the email ${email}.` });
        else if (!hostIds.includes(id)) hostIds.push(id);
      });
      (spec.availability ?? []).forEach((window, k) => {
        const start = parseWallClock(window.start);
        const end = parseWallClock(window.end);
        if (start === null || end === null || start >= end || start === 24 * 60) {
          violations.push({ field: `${at}.availability[${k}]`, reason: 'invalid_value', message: 'start and end are HH:MM times with start before end (end may be 24:00).' });
        }
      });
      const questionIds = new Set<string>();
      (spec.questions ?? []).forEach((question, k) => {
        if (questionIds.has(question.id)) violations.push({ field: `${at}.questions[${k}].id`, reason: 'duplicate', message: 'Question ids are unique in a calendar.' });
        questionIds.add(question.id);
        const withOptions = question.type === 'select' || question.type === 'multi_select';
        if (withOptions && !(question.options && question.options.length > 0)) {
          violations.push({ field: `${at}.questions[${k}].options`, reason: 'required', message: 'select and multi_select questions need options.' });
        }
      });
      created.push({
        id: newId(),
        accountId,
        name: spec.name,
        durationMinutes: spec.durationMinutes,
        slotIntervalMinutes: spec.slotIntervalMinutes ?? spec.durationMinutes,
        minNoticeMinutes: spec.minNoticeMinutes ?? DEFAULTS.minNoticeMinutes,
        maxDaysAhead: spec.maxDaysAhead ?? DEFAULTS.maxDaysAhead,
        dailyMax: spec.dailyMax ?? null,
        capacity: spec.capacity ?? DEFAULTS.capacity,
        timezone,
        availability: (spec.availability ?? []).map((window) => ({ weekday: window.weekday, start: window.start, end: window.end })),
        questions: (spec.questions ?? []).map((question) => ({
          id: question.id,
          label: question.label,
          type: question.type,
          required: question.required,
          options: question.type === 'select' || question.type === 'multi_select' ? [...(question.options ?? [])] : null,
        })),
        requiresQualifiedLead: spec.requiresQualifiedLead ?? false,
        isActive: spec.isActive ?? true,
        meetingLink: spec.meetingLink ?? null,
        hostIds: [...hostIds].sort(),
      });
    });
    if (violations.length > 0) throw new ValidationFailedError(violations, 'The calendars of the blueprint are invalid.');
    for (const calendar of created) await this.calendars.insert(calendar);
    return Object.fromEntries(created.map((calendar) => [calendar.name, calendar.id]));
  }
}
