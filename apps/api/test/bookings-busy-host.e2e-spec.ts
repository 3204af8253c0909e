import { FixedClock } from '@leadflow/shared-kernel';
import { db } from './support/contacts-fixtures';
import { addBusyTime, book, BookingsAccount, bookingWrites, newContact, postBooking, provisionBookings } from './support/bookings-fixtures';
import { TestApi } from './support/test-api';

/**
 * Issue 13, item 1: `POST /v1/bookings` for a busy host (public-api-v1 › Endpoints › POST /v1/bookings,
 * rejection table). `host_unavailable` is about the host's time (`details.causes`); `slot_unavailable` is
 * a slot that cannot be had whoever hosts it: a full group session, or no host of the calendar available
 * when the request names none. Real PostgreSQL and Redis, FixedClock at Monday 2027-03-01 12:00Z
 * (07:00 in Montreal); weekday hours 09:00–17:00 Montreal = 14:00Z–22:00Z.
 */
describe('bookings: busy host (host_unavailable other_booking, slot_unavailable)', () => {
  const clock = new FixedClock(new Date('2027-03-01T12:00:00.000Z'));
  let api: TestApi;
  let fx: BookingsAccount;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    fx = await provisionBookings(api);
  });
  afterAll(() => api.close());

  const answers = { adresse: { value: '12 rue des Érables, Laval' } };

  /** Expects a 422 `business_rule_violation` with exactly `details`, and that nothing was written (bookings, host events, emails, outbox, activity, contacts). */
  async function expectRefusal(body: Record<string, unknown>, details: Record<string, unknown>): Promise<void> {
    const before = await bookingWrites(api, fx.account.account_id);
    const response = await postBooking(api, fx.token, body);
    expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({ status: 422, code: 'business_rule_violation', details });
    expect(await bookingWrites(api, fx.account.account_id)).toEqual(before);
  }

  const bookingsAt = (calendarId: string, start: string) => db(api).count('bookings.bookings', `calendar_id = $1 AND start_at = $2`, [calendarId, start]);

  describe('host_unavailable with causes other_booking (host_id given: honoured or rejected, never replaced)', () => {
    it('the requested host already has a booking at this very slot of a one-seat calendar', async () => {
      const start = '2027-03-02T15:00:00Z';
      await book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: start, contact_id: (await newContact(api, fx.token)).id, host_id: fx.julie });
      const contact = await newContact(api, fx.token);
      await expectRefusal({ event_type_id: fx.calendars.Rotation, start_datetime: start, contact_id: contact.id, host_id: fx.julie }, { reason: 'host_unavailable', causes: ['other_booking'] });
      expect(await bookingsAt(fx.calendars.Rotation, start)).toBe(1);
      // The other host of the calendar is free at that slot: the same request with Marc succeeds.
      const booking = await book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: start, contact_id: contact.id, host_id: fx.marc });
      expect(booking).toMatchObject({ host_id: fx.marc, status: 'confirmed' });
    });

    it('the requested host has a booking overlapping part of the slot on the same calendar (60-minute sessions, 30-minute cadence)', async () => {
      await book(api, fx.token, { event_type_id: fx.calendars.Consultation, start_datetime: '2027-03-03T15:00:00Z', contact_id: (await newContact(api, fx.token)).id, form_responses: answers });
      const contact = await newContact(api, fx.token);
      for (const start of ['2027-03-03T14:30:00Z', '2027-03-03T15:00:00Z', '2027-03-03T15:30:00Z']) {
        await expectRefusal(
          { event_type_id: fx.calendars.Consultation, start_datetime: start, contact_id: contact.id, host_id: fx.julie, form_responses: answers },
          { reason: 'host_unavailable', causes: ['other_booking'] },
        );
      }
      // Back to back is not overlapping.
      expect((await book(api, fx.token, { event_type_id: fx.calendars.Consultation, start_datetime: '2027-03-03T16:00:00Z', contact_id: contact.id, form_responses: answers })).host_id).toBe(fx.julie);
    });

    it('the requested host has an overlapping booking on another calendar, and the busy slot also fills the day (other_booking with daily_max, in the spec order)', async () => {
      const start = '2027-03-04T15:00:00Z';
      await book(api, fx.token, { event_type_id: fx.calendars.Solo, start_datetime: start, contact_id: (await newContact(api, fx.token)).id });
      await expectRefusal(
        { event_type_id: fx.calendars.Rotation, start_datetime: start, contact_id: (await newContact(api, fx.token)).id, host_id: fx.julie },
        { reason: 'host_unavailable', causes: ['other_booking'] },
      );
      // Solo has daily_max 1: the same slot again is both another booking and a second session that day.
      await expectRefusal(
        { event_type_id: fx.calendars.Solo, start_datetime: start, contact_id: (await newContact(api, fx.token)).id, host_id: fx.julie },
        { reason: 'host_unavailable', causes: ['other_booking', 'daily_max'] },
      );
      expect(await bookingsAt(fx.calendars.Solo, start)).toBe(1);
    });
  });

  describe('slot_unavailable: a slot that cannot be had whoever hosts it', () => {
    it('a full group session: the requested host is free (the session is theirs) but every seat is taken; no causes', async () => {
      const saturday = { event_type_id: fx.calendars.Atelier, start_datetime: '2027-03-13T15:00:00Z' };
      for (let seat = 0; seat < 3; seat += 1) {
        expect((await book(api, fx.token, { ...saturday, contact_id: (await newContact(api, fx.token)).id, host_id: fx.julie })).host_id).toBe(fx.julie);
      }
      const contact = await newContact(api, fx.token);
      await expectRefusal({ ...saturday, contact_id: contact.id, host_id: fx.julie }, { reason: 'slot_unavailable' });
      await expectRefusal({ ...saturday, contact_id: contact.id }, { reason: 'slot_unavailable' });
      expect(await bookingsAt(fx.calendars.Atelier, saturday.start_datetime)).toBe(3);
    });

    it('a seat of the host\'s own group session is joined, never counted as their other booking', async () => {
      const saturday = { event_type_id: fx.calendars.Atelier, start_datetime: '2027-03-20T15:00:00Z' };
      await book(api, fx.token, { ...saturday, contact_id: (await newContact(api, fx.token)).id, host_id: fx.julie });
      expect((await book(api, fx.token, { ...saturday, contact_id: (await newContact(api, fx.token)).id, host_id: fx.julie })).host_id).toBe(fx.julie);
    });

    it('without host_id, every eligible host busy: slot_unavailable with details.causes = the union of the hosts\' causes (no host named, none blamed), nothing written', async () => {
      const start = '2027-03-05T15:00:00Z';
      await book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: start, contact_id: (await newContact(api, fx.token)).id, host_id: fx.julie });
      await book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: start, contact_id: (await newContact(api, fx.token)).id, host_id: fx.marc });
      const contact = await newContact(api, fx.token);
      await expectRefusal({ event_type_id: fx.calendars.Rotation, start_datetime: start, contact_id: contact.id }, { reason: 'slot_unavailable', causes: ['other_booking'] });
      expect(await bookingsAt(fx.calendars.Rotation, start)).toBe(2);

      // Each host busy for its own reason: the causes are merged, in the spec order.
      const later = '2027-03-05T16:00:00Z';
      await book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: later, contact_id: (await newContact(api, fx.token)).id, host_id: fx.julie });
      await addBusyTime(api, fx.account.account_id, fx.marc, 'google_busy', '2027-03-05T16:00:00Z', '2027-03-05T17:00:00Z');
      await expectRefusal({ event_type_id: fx.calendars.Rotation, start_datetime: later, contact_id: contact.id }, { reason: 'slot_unavailable', causes: ['other_booking', 'google_busy'] });
    });

    it('without host_id, one host busy: the free host is assigned (the rotation skips the busy one)', async () => {
      const start = '2027-03-08T15:00:00Z';
      await book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: start, contact_id: (await newContact(api, fx.token)).id, host_id: fx.julie });
      const booking = await book(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: start, contact_id: (await newContact(api, fx.token)).id });
      expect(booking.host_id).toBe(fx.marc);
    });
  });
});
