/**
 * Keyset cursor over `(created_at, id)` (public-api-v1 › Envelopes, lists and shared conventions).
 * The opaque form is base64url of `{"t":"<ISO instant>","id":"<uuid>"}`. The older format, a bare
 * ISO-8601 timestamp, is still accepted until 2027-05-03 and decodes to `{ createdAt, id: null }`
 * (rows strictly older than the instant).
 */
export interface KeysetPosition {
  createdAt: Date;
  id: string | null;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A '+' of an offset arrives as a space when the client did not percent-encode it in the query string. */
const ISO_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+\- ](\d{2}):(\d{2}))$/;
const MAX_CURSOR_LENGTH = 512;

export function encodeCursor(position: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify({ t: position.createdAt.toISOString(), id: position.id })).toString('base64url');
}

/** Returns null when the cursor is neither an opaque cursor nor a legacy ISO timestamp. */
export function decodeCursor(cursor: string): KeysetPosition | null {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) return null;
  const legacy = parseIsoInstant(cursor);
  if (legacy) return { createdAt: legacy, id: null };
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    const { t, id } = parsed as { t?: unknown; id?: unknown };
    if (typeof t !== 'string' || typeof id !== 'string' || !UUID_PATTERN.test(id)) return null;
    const createdAt = parseIsoInstant(t);
    return createdAt ? { createdAt, id: id.toLowerCase() } : null;
  } catch {
    return null;
  }
}

/**
 * A strict ISO-8601 instant (date, time, optional fraction, `Z` or an offset): calendar fields are
 * checked, so `2026-02-30T00:00:00Z` is refused rather than rolled over to March.
 */
export function parseIsoInstant(text: string): Date | null {
  const match = ISO_PATTERN.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, , zone, offsetHours, offsetMinutes] = match;
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  if (zone !== 'Z' && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59)) return null;
  const instant = new Date(zone.startsWith(' ') ? text.replace(' ', '+') : text);
  return Number.isNaN(instant.getTime()) ? null : instant;
}
