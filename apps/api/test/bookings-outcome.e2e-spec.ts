import { FixedClock } from '@leadflow/shared-kernel';
import { db } from './support/contacts-fixtures';
import { book, bookingRow, BookingsAccount, bookingWrites, cancelBooking, newContact, provisionBookings } from './support/bookings-fixtures';
import { TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * Issue 13, item 2: `POST /admin/v1/accounts/{account_id}/bookings/{booking_id}/outcome` (operator-api ›
 * Further operator endpoints) and its effect on `DELETE /v1/bookings/{id}` (public-api-v1 › States ›
 * Booking). Real PostgreSQL and Redis, FixedClock at Monday 2027-03-01 12:00Z.
 */
describe('bookings: operator outcome', () => {
  const NOW = new Date('2027-03-01T12:00:00.000Z');
  const clock = new FixedClock(NOW);
  let api: TestApi;
  let fx: BookingsAccount;
  let other: BookingsAccount;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    fx = await provisionBookings(api);
    other = await provisionBookings(api);
  });
  afterAll(() => api.close());
  afterEach(() => clock.set(NOW));

  const outcome = (bookingId: string, body: unknown, accountId = fx.account.account_id) => api.admin('POST', `/accounts/${accountId}/bookings/${bookingId}/outcome`, body);

  let day = 1;
  /** A confirmed booking on Rotation on a new weekday of March 2027 at 10:00 Montreal (15:00Z before the 14th, 14:00Z after). */
  async function confirmed(hostId?: string): Promise<Record<string, any>> {
    day += 1;
    while ([6, 0].includes(new Date(Date.UTC(2027, 2, day)).getUTCDay())) day += 1;
    const start = new Date(Date.UTC(2027, 2, day, day < 14 ? 15 : 14)).toISOString();
    return book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: start, contact_id: (await newContact(api, fx.token)).id, ...(hostId ? { host_id: hostId } : {}) });
  }

  const outcomeEvents = (bookingId: string) =>
    db(api).query(
      `SELECT payload->>'previous_status' AS previous_status, payload->'booking'->>'status' AS status, actor->>'type' AS actor
         FROM platform.outbox WHERE payload->>'booking_id' = $1 AND type = 'booking_outcome_recorded' ORDER BY sequence`,
      [bookingId],
    );
  const outcomeActivity = (bookingId: string) =>
    db(api).query(`SELECT contact_id, data, actor->>'type' AS actor FROM platform.activity_log WHERE type = 'booking_outcome_recorded' AND data->>'booking_id' = $1 ORDER BY created_at, id`, [
      bookingId,
    ]);

  describe('200 for any confirmed booking, whether its start has passed or not', () => {
    it('a booking whose start is still ahead (staff close it early): 200 { data: booking }, the row, the activity entry and the outbox event', async () => {
      const booking = await confirmed();
      expect(new Date(booking.start_datetime).getTime()).toBeGreaterThan(NOW.getTime());
      const response = await outcome(booking.id, { status: 'completed' });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ ...booking, status: 'completed', updated_at: NOW.toISOString() });
      expect(await bookingRow(api, booking.id)).toMatchObject({ status: 'completed', cancelled_at: null, updated_at: NOW });
      expect(await outcomeEvents(booking.id)).toEqual([{ previous_status: 'confirmed', status: 'completed', actor: 'operator' }]);
      expect(await outcomeActivity(booking.id)).toEqual([{ contact_id: booking.contact_id, data: { booking_id: booking.id, status: 'completed', previous_status: 'confirmed' }, actor: 'operator' }]);
    });

    it('a booking whose start has passed: no_show', async () => {
      const booking = await confirmed();
      clock.set(new Date(new Date(booking.end_datetime).getTime() + 3_600_000));
      const response = await outcome(booking.id, { status: 'no_show' });
      expect({ status: response.status, booking: response.body.data.status }).toEqual({ status: 200, booking: 'no_show' });
      expect((await bookingRow(api, booking.id))!.status).toBe('no_show');
      expect(await outcomeEvents(booking.id)).toEqual([{ previous_status: 'confirmed', status: 'no_show', actor: 'operator' }]);
    });

    it('a booking closed early stops holding its host\'s time: the same slot with the same host_id can be booked again', async () => {
      const booking = await confirmed(fx.julie);
      expect((await outcome(booking.id, { status: 'no_show' })).status).toBe(200);
      const next = await book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: booking.start_datetime, contact_id: (await newContact(api, fx.token)).id, host_id: fx.julie });
      expect(next).toMatchObject({ host_id: fx.julie, status: 'confirmed' });
    });
  });

  describe('a second outcome', () => {
    it('the same outcome again is 200 with the booking unchanged, and writes nothing', async () => {
      const booking = await confirmed();
      const first = await outcome(booking.id, { status: 'completed' });
      clock.set(new Date(NOW.getTime() + 60_000));
      const before = await bookingWrites(api, fx.account.account_id);
      const again = await outcome(booking.id, { status: 'completed' });
      expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: first.body });
      expect(await bookingWrites(api, fx.account.account_id)).toEqual(before);
      expect((await bookingRow(api, booking.id))!.updated_at).toEqual(NOW);
      expect(await outcomeEvents(booking.id)).toHaveLength(1);
    });

    it('the other outcome corrects the first: 200, the latest wins, recorded again with previous_status', async () => {
      const booking = await confirmed();
      expect((await outcome(booking.id, { status: 'no_show' })).status).toBe(200);
      const later = new Date(NOW.getTime() + 60_000);
      clock.set(later);
      const corrected = await outcome(booking.id, { status: 'completed' });
      expect({ status: corrected.status, data: corrected.body.data }).toMatchObject({ status: 200, data: { id: booking.id, status: 'completed', updated_at: later.toISOString() } });
      expect((await bookingRow(api, booking.id))!.status).toBe('completed');
      expect(await outcomeEvents(booking.id)).toEqual([
        { previous_status: 'confirmed', status: 'no_show', actor: 'operator' },
        { previous_status: 'no_show', status: 'completed', actor: 'operator' },
      ]);
      expect((await outcomeActivity(booking.id)).map((row) => row.data.status)).toEqual(['no_show', 'completed']);
    });
  });

  describe('422 business_rule_violation already_cancelled', () => {
    it('a cancelled booking takes no outcome; nothing written', async () => {
      const booking = await confirmed();
      expect((await cancelBooking(api, fx.token, booking.id)).status).toBe(200);
      const before = await bookingWrites(api, fx.account.account_id);
      for (const status of ['completed', 'no_show']) {
        const response = await outcome(booking.id, { status });
        expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({
          status: 422,
          code: 'business_rule_violation',
          details: { reason: 'already_cancelled' },
        });
      }
      expect(await bookingWrites(api, fx.account.account_id)).toEqual(before);
      expect((await bookingRow(api, booking.id))!.status).toBe('cancelled');
    });
  });

  describe('after an outcome, DELETE /v1/bookings/{id} gives 422 booking_not_cancellable', () => {
    it('completed or no_show, recorded before or after the start; nothing written', async () => {
      for (const [status, afterStart] of [
        ['completed', false],
        ['no_show', false],
        ['completed', true],
        ['no_show', true],
      ] as const) {
        const booking = await confirmed();
        if (afterStart) clock.set(new Date(booking.end_datetime));
        expect((await outcome(booking.id, { status })).status).toBe(200);
        const before = await bookingWrites(api, fx.account.account_id);
        const response = await cancelBooking(api, fx.token, booking.id);
        expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({
          status: 422,
          code: 'business_rule_violation',
          details: { reason: 'booking_not_cancellable' },
        });
        expect(await bookingWrites(api, fx.account.account_id)).toEqual(before);
        expect(await bookingRow(api, booking.id)).toMatchObject({ status, cancelled_at: null, cancelled_by: null });
        clock.set(NOW);
      }
    });
  });

  describe('tenant isolation and bad input', () => {
    it('another account\'s booking answers exactly like an unknown id (404 resource_not_found) and stays untouched', async () => {
      const theirs = await book(api, other.token, { event_type_id: other.calendars.Rotation, start_datetime: '2027-03-31T14:00:00Z', contact_id: (await newContact(api, other.token)).id });
      const foreign = await outcome(theirs.id, { status: 'completed' });
      const unknown = await outcome('5b0e5d8e-6f51-4c43-9a57-0d4d1f1a0c09', { status: 'completed' });
      const notUuid = await outcome('abc', { status: 'completed' });
      for (const response of [foreign, unknown, notUuid]) {
        expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({ status: 404, code: 'resource_not_found', details: { resource: 'booking' } });
      }
      // An unknown account id in the path: the booking is not found there either.
      const wrongAccount = await outcome(theirs.id, { status: 'completed' }, '5b0e5d8e-6f51-4c43-9a57-0d4d1f1a0c09');
      expect({ status: wrongAccount.status, code: wrongAccount.body.code }).toEqual({ status: 404, code: 'resource_not_found' });
      expect((await bookingRow(api, theirs.id))!.status).toBe('confirmed');
      expect(await outcomeEvents(theirs.id)).toEqual([]);
    });

    it('a bad body is 400 validation_error, never 500, and writes nothing', async () => {
      const booking = await confirmed();
      const before = await bookingWrites(api, fx.account.account_id);
      for (const body of [{ status: 'cancelled' }, { status: 'confirmed' }, {}, { status: null }, { status: 1 }, { status: 'completed', note: 'x' }]) {
        const response = await outcome(booking.id, body);
        expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 'validation_error' });
      }
      expect(await bookingWrites(api, fx.account.account_id)).toEqual(before);
      expect((await bookingRow(api, booking.id))!.status).toBe('confirmed');
    });
  });
});
