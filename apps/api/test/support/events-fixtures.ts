import { createHmac } from 'node:crypto';
import { EXAMPLE_CUSTOM_FIELDS } from './contacts-fixtures';
import type { ProvisionedAccount, TestApi, TestResponse } from './test-api';

/** The instant the events tests run at (FixedClock). */
export const EVENTS_NOW = new Date('2026-11-22T15:00:00.000Z');

/** Events of the test accounts: one published with two editions (the first ended), a draft, an archived one, one without upcoming edition. */
export const EXAMPLE_EVENTS = [
  {
    slug: 'salon-2027',
    name: 'Salon Habitat 2027',
    status: 'published',
    languages: ['fr', 'en'],
    editions: [
      { name: 'Québec 2026', starts_at: '2026-10-01T14:00:00.000Z', ends_at: '2026-10-03T22:00:00.000Z', status: 'open' },
      { name: 'Montréal', starts_at: '2027-03-10T14:00:00.000Z', ends_at: '2027-03-12T22:00:00.000Z', status: 'open' },
      { name: 'Laval', starts_at: '2027-02-10T14:00:00.000Z', ends_at: '2027-02-12T22:00:00.000Z', status: 'cancelled' },
      { name: 'Sherbrooke', starts_at: '2027-05-10T14:00:00.000Z', ends_at: '2027-05-12T22:00:00.000Z', status: 'ended' },
      { name: 'Gatineau', starts_at: '2027-06-10T14:00:00.000Z', ends_at: '2027-06-12T22:00:00.000Z', status: 'open' },
    ],
  },
  { slug: 'brouillon', name: 'Atelier brouillon', status: 'draft', languages: ['fr'], editions: [{ name: 'A', starts_at: '2027-01-10T14:00:00.000Z', ends_at: '2027-01-10T18:00:00.000Z', status: 'open' }] },
  { slug: 'archive', name: 'Ancien salon', status: 'archived', languages: ['fr'], editions: [{ name: 'A', starts_at: '2027-01-10T14:00:00.000Z', ends_at: '2027-01-10T18:00:00.000Z', status: 'open' }] },
  { slug: 'passe', name: 'Salon passé', status: 'published', languages: ['en'], editions: [{ name: 'A', starts_at: '2026-01-10T14:00:00.000Z', ends_at: '2026-01-10T18:00:00.000Z', status: 'open' }] },
];

/** An account with the events module, custom fields, a default sender, example events and keys of several scope sets. */
export function eventsBlueprint(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    custom_fields: EXAMPLE_CUSTOM_FIELDS,
    senders: [{ email: 'bonjour@tremblay.test', name: 'Rénovations Tremblay', is_default: true }],
    events: EXAMPLE_EVENTS,
    api_keys: [
      { name: 'full', preset: 'full_integration', per_hour: 100000, events_per_minute: 100000 },
      { name: 'capture', preset: 'lead_capture', per_hour: 100000, events_per_minute: 100000 },
      { name: 'writer', scopes: ['contacts:read', 'contacts:write'], per_hour: 100000 },
      { name: 'reader', scopes: ['contacts:read'], per_hour: 100000 },
    ],
    ...extra,
  };
}

export interface PostEventOptions {
  /** Signs the exact bytes sent with `signingKey` (default: the calling key) at `t` (default: the test clock). */
  sign?: { t?: number; key?: string } | true;
  headers?: Record<string, string>;
  rawBody?: string;
  remoteAddress?: string;
}

/** The `X-Service-Signature` value of `rawBody` (public-api-v1 › Authentication 6). */
export function signature(key: string, t: number, rawBody: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${rawBody}`).digest('hex')}`;
}

/** POST /v1/events with `body` serialised once (or `rawBody`), optionally signed over those exact bytes. */
export function postEvent(api: TestApi, key: string, body: unknown, options: PostEventOptions = {}): Promise<TestResponse> {
  const rawBody = options.rawBody ?? JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.headers ?? {}) };
  if (options.sign) {
    const sign = options.sign === true ? {} : options.sign;
    headers['x-service-signature'] = signature(sign.key ?? key, sign.t ?? Math.floor(api.clock.now().getTime() / 1000), rawBody);
  }
  return api.request({ method: 'POST', path: '/v1/events', token: key, rawBody, headers, remoteAddress: options.remoteAddress });
}

export function register(api: TestApi, key: string, body: unknown): Promise<TestResponse> {
  return api.request({ method: 'POST', path: '/v1/event-registrations', token: key, body });
}

/** The operator's action on a registration (declined, opted out). */
export function updateRegistration(api: TestApi, account: ProvisionedAccount, registrationId: string, body: unknown): Promise<TestResponse> {
  return api.admin('PATCH', `/accounts/${account.account_id}/event-registrations/${registrationId}`, body);
}

/** Events provisioned by the blueprint: `{ slug: { id, editions } }`. */
export function eventsOf(account: ProvisionedAccount): Record<string, { id: string; editions: string[] }> {
  return account.events as Record<string, { id: string; editions: string[] }>;
}
