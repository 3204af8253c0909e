import { InvalidRequestError } from '@leadflow/shared-kernel';
import { MAX_USAGE_RANGE_DAYS, USAGE_GRANULARITIES, UsageGranularity } from '@leadflow/usage-contracts';
import { DAY_MS } from './usage-time';

/**
 * An ISO 8601 instant: a date (`2026-03-10`, UTC midnight) or a date-time with seconds optional,
 * fractions optional and an offset required (`Z`, `+01:00`, `-0500`). A space stands for `+` in the
 * offset (an unencoded `+` in a query string arrives as a space).
 */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+\- ]\d{2}:?\d{2}))?$/;

/** Parses an instant of a query parameter; null when it is not a valid ISO 8601 instant. */
export function parseInstant(raw: string): Date | null {
  const match = INSTANT.exec(raw);
  if (!match) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', offset = 'Z'] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate() || h > 23 || mi > 59 || s > 59) return null;
  let offsetMinutes = 0;
  if (offset !== 'Z') {
    const digits = offset.slice(1).replace(':', '');
    const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (offset[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const millis = Math.floor(Number(`0.${fraction || '0'}`) * 1000);
  const instant = Date.UTC(y, mo - 1, d, h, mi, s, millis) - offsetMinutes * 60_000;
  return Number.isFinite(instant) ? new Date(instant) : null;
}

/**
 * The range of `GET /v1/usage` (public-api-v1 › Me and Usage, Limits): `from` inclusive and `to`
 * exclusive, both required, `to` strictly after `from`, at most 90 days apart; `granularity` `hour`
 * or `day` (default `day`). Any other input is 400 `invalid_request` with `details.field` and
 * `details.reason`.
 */
export class UsageRange {
  private constructor(
    readonly from: Date,
    readonly to: Date,
    readonly granularity: UsageGranularity,
  ) {}

  /** From raw query parameters (strings, or arrays when repeated). */
  static parse(query: { from?: unknown; to?: unknown; granularity?: unknown }): UsageRange {
    const from = UsageRange.instant('from', query.from);
    const to = UsageRange.instant('to', query.to);
    let granularity: UsageGranularity = 'day';
    if (query.granularity !== undefined) {
      if (typeof query.granularity !== 'string' || !(USAGE_GRANULARITIES as readonly string[]).includes(query.granularity)) {
        throw new InvalidRequestError('granularity', 'invalid_value', 'granularity must be hour or day.');
      }
      granularity = query.granularity as UsageGranularity;
    }
    return UsageRange.of(from, to, granularity);
  }

  /** From parsed values: checks the order and the length of the range. */
  static of(from: Date, to: Date, granularity: UsageGranularity): UsageRange {
    if (Number.isNaN(from.getTime())) throw new InvalidRequestError('from', 'invalid_datetime', 'from must be an ISO 8601 timestamp.');
    if (Number.isNaN(to.getTime())) throw new InvalidRequestError('to', 'invalid_datetime', 'to must be an ISO 8601 timestamp.');
    if (!(USAGE_GRANULARITIES as readonly string[]).includes(granularity)) {
      throw new InvalidRequestError('granularity', 'invalid_value', 'granularity must be hour or day.');
    }
    if (to.getTime() <= from.getTime()) {
      throw new InvalidRequestError('to', 'not_after_from', 'to must be strictly after from.');
    }
    if (to.getTime() - from.getTime() > MAX_USAGE_RANGE_DAYS * DAY_MS) {
      throw new InvalidRequestError('to', 'range_too_long', `The range from from to to is at most ${MAX_USAGE_RANGE_DAYS} days.`);
    }
    return new UsageRange(from, to, granularity);
  }

  private static instant(field: 'from' | 'to', raw: unknown): Date {
    if (raw === undefined || raw === '') throw new InvalidRequestError(field, 'required', `${field} is required.`);
    const instant = typeof raw === 'string' ? parseInstant(raw) : null;
    if (!instant) throw new InvalidRequestError(field, 'invalid_datetime', `${field} must be an ISO 8601 timestamp, e.g. 2026-03-10T00:00:00Z.`);
    return instant;
  }
}
