import { newId } from '@leadflow/shared-kernel';
import { createContact, db, expectStatus } from './contacts-fixtures';
import { VENTES } from './pipeline-fixtures';
import type { ProvisionedAccount, TestApi, TestResponse } from './test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/** Team members: Julie and Marc host; Paul is inactive (a calendar hosted by him alone has no active host). */
export const JULIE = 'julie@tremblay.test';
export const MARC = 'marc@tremblay.test';
export const PAUL = 'paul@tremblay.test';

const WEEKDAYS = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));

/** The operator example's calendar, plus one question of each type. */
export const CONSULTATION = {
  name: 'Consultation',
  duration_minutes: 60,
  slot_interval_minutes: 30,
  min_notice_minutes: 120,
  max_days_ahead: 60,
  daily_max: 4,
  capacity: 1,
  timezone: 'America/Montreal',
  hosts: [JULIE],
  availability: WEEKDAYS,
  questions: [
    { id: 'adresse', label: 'Adresse des travaux', type: 'text', required: true },
    { id: 'type_projet', label: 'Type de projet', type: 'select', required: false, options: ['cuisine', 'salle_de_bain'] },
    { id: 'pieces', label: 'Pièces', type: 'multi_select', options: ['cuisine', 'salon', 'chambre'] },
    { id: 'budget', label: 'Budget', type: 'number' },
  ],
  requires_qualified_lead: false,
  is_active: true,
  meeting_link: 'https://meet.example.test/consultation',
};

/** Every calendar the bookings tests use (names are the keys of `account.calendars`). */
export const CALENDARS = [
  CONSULTATION,
  { name: 'Solo', duration_minutes: 30, daily_max: 1, timezone: 'America/Montreal', hosts: [JULIE], availability: WEEKDAYS },
  { name: 'Rotation', duration_minutes: 30, timezone: 'America/Montreal', hosts: [JULIE, MARC], availability: WEEKDAYS },
  {
    name: 'Nuit',
    duration_minutes: 30,
    slot_interval_minutes: 30,
    max_days_ahead: 60,
    timezone: 'America/Montreal',
    hosts: [MARC],
    availability: [{ weekday: 7, start: '00:00', end: '06:00' }],
  },
  { name: 'Quarts', duration_minutes: 45, slot_interval_minutes: 45, timezone: 'America/Montreal', hosts: [MARC], availability: [{ weekday: 7, start: '00:00', end: '06:00' }] },
  { name: 'Paris', duration_minutes: 60, timezone: 'Europe/Paris', hosts: [MARC], availability: [{ weekday: 1, start: '09:00', end: '12:00' }] },
  { name: 'Atelier', duration_minutes: 120, slot_interval_minutes: 60, capacity: 3, timezone: 'America/Montreal', hosts: [JULIE], availability: [{ weekday: 6, start: '10:00', end: '16:00' }] },
  { name: 'Qualifié', duration_minutes: 30, requires_qualified_lead: true, timezone: 'America/Montreal', hosts: [JULIE], availability: WEEKDAYS },
  { name: 'Inactif', duration_minutes: 30, is_active: false, hosts: [JULIE], availability: WEEKDAYS },
  { name: 'Sans hôte', duration_minutes: 30, hosts: [PAUL], availability: WEEKDAYS },
];

/** A blueprint with the team, a sender (host notifications), the sales pipeline, the calendars and keys of several scope sets. */
export function bookingsBlueprint(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    timezone: 'America/Montreal',
    team_members: [
      { email: JULIE, first_name: 'Julie', last_name: 'Roy', is_sales_rep: true },
      { email: MARC, first_name: 'Marc', last_name: 'Dion', is_sales_rep: true },
      { email: PAUL, first_name: 'Paul', last_name: 'Roy', is_active: false },
    ],
    senders: [{ email: 'bonjour@tremblay.test', name: 'Rénovations Tremblay', is_default: true }],
    pipelines: [VENTES],
    calendars: CALENDARS,
    api_keys: [
      { name: 'full', preset: 'full_integration', per_hour: 100000 },
      { name: 'reader', scopes: ['bookings:read'], per_hour: 100000 },
      { name: 'contacts', scopes: ['contacts:read', 'contacts:write'], per_hour: 100000 },
    ],
    ...extra,
  };
}

/** A bookings fixture: the account, its full key, calendar and host ids. */
export interface BookingsAccount {
  account: ProvisionedAccount;
  token: string;
  calendars: Record<string, string>;
  julie: string;
  marc: string;
  paul: string;
}

export async function provisionBookings(api: TestApi, extra: Record<string, unknown> = {}): Promise<BookingsAccount> {
  const account = await api.provision(bookingsBlueprint(extra));
  return {
    account,
    token: account.api_keys.full.key,
    calendars: account.calendars as Record<string, string>,
    julie: account.team_members[JULIE],
    marc: account.team_members[MARC],
    paul: account.team_members[PAUL],
  };
}

let contactSequence = 0;

/** A new contact with a unique email (`POST /v1/contacts`). */
export async function newContact(api: TestApi, token: string, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  contactSequence += 1;
  return createContact(api, token, { first_name: 'Nadia', last_name: `Bélanger ${contactSequence}`, email: `nadia.${contactSequence}.${newId().slice(-8)}@example.com`, ...extra });
}

export function postBooking(api: TestApi, token: string, body: unknown): Promise<TestResponse> {
  return api.request({ method: 'POST', path: '/v1/bookings', token, body });
}

/** POST /v1/bookings that must succeed; returns the booking. */
export async function book(api: TestApi, token: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  return expectStatus(await postBooking(api, token, body), 201).body.data;
}

export function cancelBooking(api: TestApi, token: string, id: string): Promise<TestResponse> {
  return api.request({ method: 'DELETE', path: `/v1/bookings/${id}`, token });
}

/**
 * Test fixture of the default ExternalCalendarPort adapter: a blocked time (`blocked_time`) or a busy time
 * synced from the host's external calendar (`google_busy`) written straight into `bookings.host_busy_times`.
 */
export async function addBusyTime(api: TestApi, accountId: string, hostId: string, kind: 'blocked_time' | 'google_busy', start: string, end: string): Promise<void> {
  await db(api).query(`INSERT INTO bookings.host_busy_times (id, account_id, host_id, kind, start_at, end_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
    newId(),
    accountId,
    hostId,
    kind,
    start,
    end,
  ]);
}

/** The stored row of a booking. */
export async function bookingRow(api: TestApi, id: string): Promise<Record<string, any> | undefined> {
  const [row] = await db(api).query(`SELECT * FROM bookings.bookings WHERE id = $1`, [id]);
  return row;
}

/** Rows the booking routes write for an account (compare before and after a refused request). */
export async function bookingWrites(api: TestApi, accountId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['bookings.bookings', 'bookings.host_calendar_events', 'messaging.outgoing_emails', 'platform.outbox', 'platform.activity_log', 'contacts.contacts']) {
    counts[table] = await db(api).count(table, 'account_id = $1', [accountId]);
  }
  return counts;
}
