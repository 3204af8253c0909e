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
const ISO_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

export function encodeCursor(position: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify({ t: position.createdAt.toISOString(), id: position.id })).toString('base64url');
}

/** Returns null when the cursor is neither an opaque cursor nor a legacy ISO timestamp. */
export function decodeCursor(cursor: string): KeysetPosition | null {
  if (ISO_PATTERN.test(cursor)) {
    const createdAt = new Date(cursor);
    return Number.isNaN(createdAt.getTime()) ? null : { createdAt, id: null };
  }
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { t, id } = parsed as { t?: unknown; id?: unknown };
    if (typeof t !== 'string' || typeof id !== 'string' || !UUID_PATTERN.test(id)) return null;
    const createdAt = new Date(t);
    if (Number.isNaN(createdAt.getTime())) return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}
