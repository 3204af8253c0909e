/**
 * Caps of the stored `payload` of a custom event (public-api-v1 › Limits: "Caps (keys, depth, size)
 * on the stored payload of custom events: not shown" — these are ours). The request is never refused
 * for them: the payload is stored truncated and the event row says so (`payload_truncated`).
 */
export const PAYLOAD_CAPS = {
  /** Nesting levels of objects and arrays, the payload itself being level 1; deeper values become `"[truncated]"`. */
  maxDepth: 5,
  /** Members kept per object (and items per array), in the order sent; the rest are dropped. */
  maxKeys: 100,
  /** Characters kept per string value (and per key). */
  maxStringLength: 2000,
  /** UTF-8 bytes of the stored JSON; beyond, top-level members are dropped from the last one until it fits. */
  maxBytes: 16 * 1024,
} as const;

export const TRUNCATED_MARK = '[truncated]';

export interface CappedPayload {
  value: Record<string, unknown>;
  truncated: boolean;
}

/** Applies {@link PAYLOAD_CAPS} to a JSON object (already parsed, so only JSON values occur). */
export function capPayload(payload: Record<string, unknown>): CappedPayload {
  const state = { truncated: false };
  const value = capValue(payload, 1, state) as Record<string, unknown>;
  const entries = Object.entries(value);
  // Serialized size of `{"k":v,...}`: braces, commas between members, each member once.
  const sizes = entries.map(([key, member]) => Buffer.byteLength(`${JSON.stringify(key)}:${JSON.stringify(member)}`, 'utf8'));
  let total = 2 + sizes.reduce((sum, size) => sum + size, 0) + Math.max(0, entries.length - 1);
  let kept = entries.length;
  while (kept > 0 && total > PAYLOAD_CAPS.maxBytes) {
    kept -= 1;
    total -= sizes[kept] + (kept > 0 ? 1 : 0);
  }
  const dropped = kept < entries.length;
  return { value: dropped ? Object.fromEntries(entries.slice(0, kept)) : value, truncated: state.truncated || dropped };
}

function capValue(value: unknown, depth: number, state: { truncated: boolean }): unknown {
  if (typeof value === 'string') {
    if (value.length <= PAYLOAD_CAPS.maxStringLength) return value;
    state.truncated = true;
    return value.slice(0, PAYLOAD_CAPS.maxStringLength);
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth > PAYLOAD_CAPS.maxDepth) {
    state.truncated = true;
    return TRUNCATED_MARK;
  }
  if (Array.isArray(value)) {
    if (value.length > PAYLOAD_CAPS.maxKeys) state.truncated = true;
    return value.slice(0, PAYLOAD_CAPS.maxKeys).map((item) => capValue(item, depth + 1, state));
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > PAYLOAD_CAPS.maxKeys) state.truncated = true;
  const capped: Record<string, unknown> = {};
  for (const [key, member] of entries.slice(0, PAYLOAD_CAPS.maxKeys)) {
    const name = key.length > PAYLOAD_CAPS.maxStringLength ? key.slice(0, PAYLOAD_CAPS.maxStringLength) : key;
    if (name !== key) state.truncated = true;
    capped[name] = capValue(member, depth + 1, state);
  }
  return capped;
}
