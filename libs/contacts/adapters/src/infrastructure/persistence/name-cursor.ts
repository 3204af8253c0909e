import { isUuid } from '@leadflow/shared-kernel';

/**
 * Opaque keyset cursor of lists sorted `name ASC, id ASC` (GET /v1/tags): base64url of
 * `{"n":"<name>","id":"<uuid>"}`. The legacy ISO-timestamp cursor has no meaning for a name order and
 * is refused like any unknown cursor.
 */
export function encodeNameCursor(position: { name: string; id: string }): string {
  return Buffer.from(JSON.stringify({ n: position.name, id: position.id })).toString('base64url');
}

/** Null when `cursor` is not a cursor made by {@link encodeNameCursor}. */
export function decodeNameCursor(cursor: string): { name: string; id: string } | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { n, id } = parsed as { n?: unknown; id?: unknown };
    return typeof n === 'string' && isUuid(id) ? { name: n, id } : null;
  } catch {
    return null;
  }
}
