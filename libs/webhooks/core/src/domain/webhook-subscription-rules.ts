import type { FieldViolation } from '@leadflow/shared-kernel';
import { isWebhookEventName, WEBHOOK_EVENTS, WebhookEventName } from '@leadflow/webhooks-contracts';

/** Longest accepted `url` (characters). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * What a subscription listens to: every catalog event (`"*"` or `["*"]` in the request) or a set of
 * catalog names (deduplicated, request order kept).
 */
export type WebhookEventSelection = { all: true } | { all: false; events: WebhookEventName[] };

/**
 * Rules of `POST /v1/webhooks` on `url` (public-api-v1 › Endpoints › Webhooks): a string of at most 2048
 * characters, an absolute URL with scheme `https` (reason `invalid_format` otherwise, `https_required`
 * for another scheme), without user info (`invalid_format`). Address checks (SSRF) come after.
 */
export function urlViolations(url: unknown): FieldViolation[] {
  if (url === undefined || url === null) return [{ field: 'url', reason: 'required', message: 'url is required.' }];
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_WEBHOOK_URL_LENGTH) {
    return [{ field: 'url', reason: 'invalid_format', message: `url must be an https:// URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters.` }];
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [{ field: 'url', reason: 'invalid_format', message: 'url must be an absolute https:// URL.' }];
  }
  if (parsed.protocol !== 'https:') return [{ field: 'url', reason: 'https_required', message: 'url must use https://.' }];
  if (parsed.username || parsed.password) return [{ field: 'url', reason: 'invalid_format', message: 'url must not carry credentials.' }];
  if (!parsed.hostname) return [{ field: 'url', reason: 'invalid_format', message: 'url must name a host.' }];
  return [];
}

/**
 * Reads `events`: `"*"`, `["*"]` (every catalog event, present and future) or a non-empty array of
 * catalog names. Violations: missing (`required`), not a string array or empty (`invalid_value`),
 * `"*"` mixed with names (`invalid_value`), a name outside the catalog (`unknown_event_type`, field
 * `events[i]`).
 */
export function readEventSelection(events: unknown): { selection: WebhookEventSelection | null; violations: FieldViolation[] } {
  if (events === undefined || events === null) return { selection: null, violations: [{ field: 'events', reason: 'required', message: 'events is required.' }] };
  if (events === '*') return { selection: { all: true }, violations: [] };
  if (!Array.isArray(events) || events.length === 0) {
    return {
      selection: null,
      violations: [{ field: 'events', reason: 'invalid_value', message: 'events must be "*" or a non-empty array of event names.' }],
    };
  }
  if (events.length > 100) return { selection: null, violations: [{ field: 'events', reason: 'invalid_value', message: 'events has too many entries.' }] };
  if (events.includes('*')) {
    if (events.length === 1) return { selection: { all: true }, violations: [] };
    return { selection: null, violations: [{ field: 'events', reason: 'invalid_value', message: '"*" cannot be combined with event names.' }] };
  }
  const violations: FieldViolation[] = [];
  events.forEach((name, index) => {
    if (typeof name !== 'string') violations.push({ field: `events[${index}]`, reason: 'invalid_value', message: 'Event names are strings.' });
    else if (!isWebhookEventName(name)) {
      violations.push({ field: `events[${index}]`, reason: 'unknown_event_type', message: `Unknown event type; one of: ${WEBHOOK_EVENTS.join(', ')}.` });
    }
  });
  if (violations.length > 0) return { selection: null, violations };
  return { selection: { all: false, events: [...new Set(events as WebhookEventName[])] }, violations: [] };
}
