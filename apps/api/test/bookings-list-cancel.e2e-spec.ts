import { FixedClock } from '@leadflow/shared-kernel';
import { db } from './support/contacts-fixtures';
import { sqlOf } from './support/sql';
import {
  book,
  bookingRow,
  BookingsAccount,
  bookingsBlueprint,
  bookingWrites,
  CALENDARS,
  cancelBooking,
  JULIE,
  MARC,
  newContact,
  provisionBookings,
} from './support/bookings-fixtures';
import { TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * Blueprint `calendars`, GET /v1/bookings and DELETE /v1/bookings/{id}, on real PostgreSQL with a FixedClock
 * at Monday 2027-03-01 12:00Z (the operator outcome route: bookings-outcome.e2e-spec.ts).
 */
describe('bookings: calendars, list and cancel', () => {
  const clock = new FixedClock(new Date('2027-03-01T12:00:00.000Z'));
  const NOW = new Date('2027-03-01T12:00:00.000Z');
  let api: TestApi;
  let fx: BookingsAccount;
  let other: BookingsAccount;
  const answers = { adresse: { value: '1 rue Principale' } };

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    fx = await provisionBookings(api);
    other = await provisionBookings(api);
  });
  afterAll(() => api.close());
  afterEach(() => clock.set(NOW));

  describe('blueprint member calendars', () => {
    it('answers calendars { <name>: <id> } and stores hosts as team member ids, with the defaults of omitted values', async () => {
      expect(Object.keys(fx.calendars).sort()).toEqual(CALENDARS.map((calendar) => calendar.name).sort());
      const rows = await db(api).query(`SELECT * FROM bookings.calendars WHERE account_id = $1 ORDER BY name`, [fx.account.account_id]);
      const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
      expect(byName.Consultation).toMatchObject({
        id: fx.calendars.Consultation,
        duration_minutes: 60,
        slot_interval_minutes: 30,
        min_notice_minutes: 120,
        max_days_ahead: 60,
        daily_max: 4,
        capacity: 1,
        timezone: 'America/Montreal',
        host_ids: [fx.julie],
        requires_qualified_lead: false,
        is_active: true,
      });
      expect(byName.Consultation.questions[1]).toEqual({ id: 'type_projet', label: 'Type de projet', type: 'select', required: false, options: ['cuisine', 'salle_de_bain'] });
      expect(byName.Rotation.host_ids.sort()).toEqual([fx.julie, fx.marc].sort());
      // Omitted: cadence = duration, no notice, 60 days ahead, no daily maximum, one seat, the account's zone.
      expect(byName.Inactif).toMatchObject({ slot_interval_minutes: 30, min_notice_minutes: 0, max_days_ahead: 60, daily_max: null, capacity: 1, timezone: 'America/Montreal', is_active: false });
    });

    it('an unknown host email is a 400 validation_error on calendars[i].hosts[j], and nothing is provisioned', async () => {
      const before = await sqlOf(api).count('accounts.accounts');
      const response = await api.admin('POST', '/accounts', {
        name: 'Erreur',
        ...bookingsBlueprint({ calendars: [CALENDARS[0], { ...CALENDARS[1], hosts: [MARC, 'inconnu@tremblay.test'] }] }),
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [{ field: 'calendars[1].hosts[1]', reason: 'not_found_in_tenant' }] });
      expect(await sqlOf(api).count('accounts.accounts')).toBe(before);
    });

    it('refuses malformed calendars with field paths (weekday, times, question types and options, duplicate names, zone)', async () => {
      const base = { name: 'C', duration_minutes: 30, hosts: [JULIE] };
      const cases: [Record<string, unknown>[], string, string][] = [
        [[{ ...base, availability: [{ weekday: 8, start: '09:00', end: '17:00' }] }], 'calendars[0].availability[0].weekday', 'out_of_range'],
        [[{ ...base, availability: [{ weekday: 1, start: '9h', end: '17:00' }] }], 'calendars[0].availability[0].start', 'invalid_format'],
        [[{ ...base, availability: [{ weekday: 1, start: '17:00', end: '09:00' }] }], 'calendars[0].availability[0]', 'invalid_value'],
        [[{ ...base, questions: [{ id: 'q', label: 'Q', type: 'color' }] }], 'calendars[0].questions[0].type', 'invalid_value'],
        [[{ ...base, questions: [{ id: 'q', label: 'Q', type: 'select' }] }], 'calendars[0].questions[0].options', 'required'],
        [[base, base], 'calendars[1].name', 'duplicate'],
        [[{ ...base, timezone: 'UTC+5' }], 'calendars[0].timezone', 'invalid_timezone'],
        [[{ ...base, duration_minutes: 0 }], 'calendars[0].duration_minutes', 'out_of_range'],
        [[{ ...base, capacity: 'deux' }], 'calendars[0].capacity', 'invalid_type'],
        [[{ ...base, colour: 'bleu' }], 'calendars[0].colour', 'unknown_field'],
      ];
      for (const [calendars, field, reason] of cases) {
        const response = await api.admin('POST', '/accounts', { name: 'Erreur', ...bookingsBlueprint({ calendars }) });
        expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 'validation_error' });
        expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, reason })]));
      }
    });
  });

  describe('GET /v1/bookings', () => {
    let list: BookingsAccount;
    let bookings: any[];
    let alice: any;

    beforeAll(async () => {
      list = await provisionBookings(api);
      alice = await newContact(api, list.token);
      const bob = await newContact(api, list.token);
      bookings = [
        await book(api, list.token, { event_type_id: list.calendars.Consultation, start_datetime: '2027-03-02T15:00:00Z', contact_id: alice.id, form_responses: answers }),
        await book(api, list.token, { event_type_id: list.calendars.Paris, start_datetime: '2027-03-08T08:00:00Z', contact_id: alice.id }),
        await book(api, list.token, { event_type_id: list.calendars.Rotation, start_datetime: '2027-03-03T15:00:00Z', contact_id: bob.id }),
        await book(api, list.token, { event_type_id: list.calendars.Solo, start_datetime: '2027-03-04T15:00:00Z', contact_id: bob.id }),
      ];
      expect((await cancelBooking(api, list.token, bookings[3].id)).status).toBe(200);
    });

    const get = (query: Record<string, string> = {}, token = list.token) => api.request({ path: '/v1/bookings', token, query });

    it('lists every calendar and host of the account, sorted start_datetime DESC, id DESC, with the pagination object', async () => {
      const response = await get();
      expect(response.status).toBe(200);
      expect(response.body.data.map((b: any) => b.id)).toEqual([bookings[1].id, bookings[3].id, bookings[2].id, bookings[0].id]);
      expect(response.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 20, total_count: 4 });
      expect(response.body.data[0]).toEqual(bookings[1]);
    });

    it('walks pages with next_cursor', async () => {
      const first = await get({ limit: '3' });
      expect(first.body.pagination).toMatchObject({ has_more: true, limit: 3, total_count: 4 });
      const second = await get({ limit: '3', cursor: first.body.pagination.next_cursor });
      expect(second.body.data.map((b: any) => b.id)).toEqual([bookings[0].id]);
      expect(second.body.pagination).toMatchObject({ has_more: false, next_cursor: null });
    });

    it('filters from and to (start_datetime, inclusive; without offset UTC), status, event_type_id, contact_id', async () => {
      const ids = async (query: Record<string, string>) => (await get(query)).body.data.map((b: any) => b.id);
      expect(await ids({ from: '2027-03-03T15:00:00Z' })).toEqual([bookings[1].id, bookings[3].id, bookings[2].id]);
      expect(await ids({ to: '2027-03-03T15:00:00' })).toEqual([bookings[2].id, bookings[0].id]);
      expect(await ids({ from: '2027-03-03', to: '2027-03-05' })).toEqual([bookings[3].id, bookings[2].id]);
      expect(await ids({ status: 'cancelled' })).toEqual([bookings[3].id]);
      expect(await ids({ status: 'confirmed', contact_id: alice.id })).toEqual([bookings[1].id, bookings[0].id]);
      expect(await ids({ event_type_id: list.calendars.Paris })).toEqual([bookings[1].id]);
      expect(await ids({ status: 'completed' })).toEqual([]);
    });

    it('an event_type_id or contact_id of another account gives an empty list; another account never sees these bookings', async () => {
      const foreignContact = await newContact(api, other.token);
      for (const query of [{ event_type_id: other.calendars.Consultation }, { contact_id: foreignContact.id as string }] as Record<string, string>[]) {
        const response = await get(query);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ data: [], pagination: { next_cursor: null, has_more: false, limit: 20, total_count: 0 } });
      }
      const theirs = await get({ contact_id: alice.id }, other.token);
      expect(theirs.body.data).toEqual([]);
    });

    it('unreadable filters: 400 validation_error with field and reason; bad cursor or limit: 400 invalid_request', async () => {
      const cases: [Record<string, string>, string, string][] = [
        [{ from: 'hier' }, 'from', 'invalid_datetime'],
        [{ to: '2027-02-30T10:00:00Z' }, 'to', 'invalid_datetime'],
        [{ status: 'pending' }, 'status', 'invalid_value'],
        [{ event_type_id: 'consultation' }, 'event_type_id', 'invalid_format'],
        [{ contact_id: '12' }, 'contact_id', 'invalid_format'],
      ];
      for (const [query, field, reason] of cases) {
        const response = await get(query);
        expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 'validation_error' });
        expect(response.body.details).toEqual([expect.objectContaining({ field, reason })]);
      }
      for (const query of [{ limit: '0' }, { limit: '101' }, { limit: 'dix' }, { cursor: '!!!' }] as Record<string, string>[]) {
        const response = await get(query);
        expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 'invalid_request' });
      }
      const twice = await api.request({ path: '/v1/bookings?status=confirmed&status=cancelled', token: list.token });
      expect({ status: twice.status, code: twice.body.code }).toEqual({ status: 400, code: 'invalid_request' });
    });

    it('archived bookings (their contact was deleted) are excluded, and their id answers 404', async () => {
      const fresh = await provisionBookings(api);
      const contact = await newContact(api, fresh.token);
      const kept = await book(api, fresh.token, { event_type_id: fresh.calendars.Rotation, start_datetime: '2027-03-02T15:00:00Z', contact_id: contact.id });
      const archived = await book(api, fresh.token, { event_type_id: fresh.calendars.Solo, start_datetime: '2027-03-03T15:00:00Z', contact_id: contact.id });
      // What the worker's contact_deleted consumer does (apps/worker/test/bookings-archive.integration-spec.ts).
      await db(api).query(`UPDATE bookings.bookings SET archived_at = now() WHERE id = $1`, [archived.id]);
      const response = await get({}, fresh.token);
      expect(response.body.data.map((b: any) => b.id)).toEqual([kept.id]);
      expect(response.body.pagination.total_count).toBe(1);
      expect((await cancelBooking(api, fresh.token, archived.id)).status).toBe(404);
    });

    it('403 insufficient_scope without bookings:read', async () => {
      const response = await get({}, list.account.api_keys.contacts.key);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'bookings:read' } });
    });
  });

  describe('DELETE /v1/bookings/{id}', () => {
    it('soft cancel: 200 { data: { id, status: cancelled, cancelled_at } }, event removed from the host calendar, host notified, recorded as made by an integration, booking_cancelled in the outbox', async () => {
      const contact = await newContact(api, fx.token);
      const booking = await book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: '2027-03-10T15:00:00Z', contact_id: contact.id, host_id: fx.marc });
      clock.set(new Date('2027-03-02T09:30:00.000Z'));
      const response = await cancelBooking(api, fx.token, booking.id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { id: booking.id, status: 'cancelled', cancelled_at: '2027-03-02T09:30:00.000Z' } });
      expect(await bookingRow(api, booking.id)).toMatchObject({ status: 'cancelled', cancelled_at: new Date('2027-03-02T09:30:00.000Z'), cancelled_by: 'integration' });
      const [event] = await db(api).query(`SELECT removed_at FROM bookings.host_calendar_events WHERE booking_id = $1`, [booking.id]);
      expect(event.removed_at).toBeInstanceOf(Date);
      const emails = await db(api).query(`SELECT "to", subject, type FROM messaging.outgoing_emails WHERE account_id = $1 AND source->>'id' = $2 ORDER BY created_at`, [
        fx.account.account_id,
        booking.id,
      ]);
      expect(emails).toEqual([
        { to: MARC, subject: expect.stringContaining('Nouveau rendez-vous'), type: 'booking_notification' },
        { to: MARC, subject: expect.stringContaining('Rendez-vous annulé'), type: 'booking_notification' },
      ]);
      const outbox = await db(api).query(`SELECT type, actor, payload->'booking'->>'status' AS status FROM platform.outbox WHERE payload->>'booking_id' = $1 ORDER BY sequence`, [
        booking.id,
      ]);
      expect(outbox.map((row) => [row.type, row.status])).toEqual([
        ['booking_created', 'confirmed'],
        ['booking_cancelled', 'cancelled'],
      ]);
      expect(outbox[1].actor).toMatchObject({ type: 'integration', via: 'api_key', name: 'full' });
      const [activity] = await db(api).query(`SELECT actor, contact_id FROM platform.activity_log WHERE type = 'booking_cancelled' AND data->>'booking_id' = $1`, [booking.id]);
      expect(activity).toMatchObject({ contact_id: contact.id, actor: { type: 'integration', via: 'api_key' } });
    });

    it('422 already_cancelled for a cancelled booking, nothing written', async () => {
      const booking = await book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: '2027-03-11T15:00:00Z', contact_id: (await newContact(api, fx.token)).id });
      expect((await cancelBooking(api, fx.token, booking.id)).status).toBe(200);
      const before = await bookingWrites(api, fx.account.account_id);
      const again = await cancelBooking(api, fx.token, booking.id);
      expect({ status: again.status, body: again.body }).toMatchObject({ status: 422, body: { code: 'business_rule_violation', details: { reason: 'already_cancelled' } } });
      expect(await bookingWrites(api, fx.account.account_id)).toEqual(before);
    });

    it('422 booking_not_cancellable for a completed or no-show booking', async () => {
      for (const status of ['completed', 'no_show']) {
        const booking = await book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: '2027-03-01T15:00:00Z', contact_id: (await newContact(api, fx.token)).id });
        clock.set(new Date('2027-03-01T16:00:00.000Z'));
        expect((await api.admin('POST', `/accounts/${fx.account.account_id}/bookings/${booking.id}/outcome`, { status })).status).toBe(200);
        const response = await cancelBooking(api, fx.token, booking.id);
        expect({ status: response.status, body: response.body }).toMatchObject({ status: 422, body: { code: 'business_rule_violation', details: { reason: 'booking_not_cancellable' } } });
        clock.set(NOW);
      }
    });

    it('404 resource_not_found for an unknown id, a non-UUID id, or another account\'s booking (left untouched)', async () => {
      const theirs = await book(api, other.token, { event_type_id: other.calendars.Rotation, start_datetime: '2027-03-12T15:00:00Z', contact_id: (await newContact(api, other.token)).id });
      for (const id of ['5b0e5d8e-6f51-4c43-9a57-0d4d1f1a0c09', 'abc', theirs.id]) {
        const response = await cancelBooking(api, fx.token, id);
        expect({ status: response.status, code: response.body.code }).toEqual({ status: 404, code: 'resource_not_found' });
      }
      expect((await bookingRow(api, theirs.id))!.status).toBe('confirmed');
    });

    it('403 insufficient_scope with a read-only key', async () => {
      const response = await cancelBooking(api, fx.account.api_keys.reader.key, '5b0e5d8e-6f51-4c43-9a57-0d4d1f1a0c09');
      expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'bookings:write' } });
    });
  });
  // The operator outcome route: bookings-outcome.e2e-spec.ts.
});
