import type { Actor } from '@leadflow/shared-kernel';
import { redactSensitive } from './redaction';

/**
 * The delivery payload (public-api-v1 › Outbound webhooks), member order as sent:
 * `{ event, id, created_at, data: { …event payload, system, actor }, changes }`.
 * `id` is the delivery id on real deliveries and the source event id in samples; `data.system` is
 * `{ id, name }` of the contact's System resolved at delivery (null when the event names no contact, and
 * always null in samples); `changes` is the payload's `changes` (null when none). Sensitive keys are
 * redacted in `changes` and `data` (see `SENSITIVE_KEY_PARTS`).
 */
export interface WebhookPayload {
  event: string;
  id: string;
  created_at: string;
  /** Real deliveries only: false when the account is a sandbox (test mode), true otherwise. */
  livemode?: boolean;
  data: Record<string, unknown> & { system: { id: string; name: string } | null; actor: Actor };
  changes: unknown;
}

/** What is stored per delivery or sample before `id` and `data.system` are known. */
export interface StoredWebhookBody {
  event: string;
  created_at: string;
  data: Record<string, unknown>;
  changes: unknown;
  actor: Actor;
}

/** Builds the stored body from an outbox event (or an activity-log entry mapped to one). */
export function storedBody(event: string, occurredAt: Date | string, payload: Record<string, unknown>, actor: Actor): StoredWebhookBody {
  const { changes, ...data } = payload;
  return {
    event,
    created_at: new Date(occurredAt).toISOString(),
    data: redactSensitive(data),
    changes: changes === undefined ? null : redactSensitive(changes),
    actor: { type: actor?.type ?? null, id: actor?.id ?? null, name: actor?.name ?? null, via: actor?.via ?? null },
  };
}

/** The payload as sent (or shown as a sample); `livemode` is given on real deliveries (absent from samples). */
export function toPayload(body: StoredWebhookBody, id: string, system: { id: string; name: string } | null, livemode?: boolean): WebhookPayload {
  return {
    event: body.event,
    id,
    created_at: body.created_at,
    ...(livemode === undefined ? {} : { livemode }),
    data: { ...body.data, system, actor: body.actor },
    changes: body.changes,
  };
}

/** The contact an event is about (`contact_id`, else `contact.id`), for the System lookup; null when none. */
export function contactIdOf(payload: Record<string, unknown>): string | null {
  const direct = payload.contact_id;
  if (typeof direct === 'string') return direct;
  const contact = payload.contact as { id?: unknown } | undefined;
  return contact && typeof contact.id === 'string' ? contact.id : null;
}
