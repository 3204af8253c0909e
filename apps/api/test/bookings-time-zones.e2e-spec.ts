import { FixedClock } from '@leadflow/shared-kernel';
import { book, BookingsAccount, newContact, postBooking, provisionBookings } from './support/bookings-fixtures';
import { TestApi } from './support/test-api';

/**
 * Time zones of POST /v1/bookings: availability and cadence are read in the calendar's zone (wall-clock
 * times), across the America/Montreal daylight-saving weekends of 2027 (spring forward Sunday 03-14 at
 * 02:00, fall back Sunday 11-07 at 02:00), and for a Europe/Paris calendar booked from America/Vancouver.
 */
describe('bookings: time zones and daylight-saving time', () => {
  const clock = new FixedClock(new Date('2027-03-01T12:00:00.000Z'));
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
  });
  afterAll(() => api.close());

  async function expectHostUnavailable(fx: BookingsAccount, body: Record<string, unknown>, causes: string[]): Promise<void> {
    const response = await postBooking(api, fx.token, { ...body, contact_id: (await newContact(api, fx.token)).id });
    expect({ status: response.status, details: response.body.details }).toEqual({ status: 422, details: { reason: 'host_unavailable', causes } });
  }

  async function expectOffCadence(fx: BookingsAccount, body: Record<string, unknown>): Promise<void> {
    const response = await postBooking(api, fx.token, { ...body, contact_id: (await newContact(api, fx.token)).id });
    expect({ status: response.status, details: response.body.details }).toEqual({ status: 400, details: { field: 'start_datetime', reason: 'off_cadence' } });
  }

  const bookAs = async (fx: BookingsAccount, body: Record<string, unknown>) => book(api, fx.token, { ...body, contact_id: (await newContact(api, fx.token)).id });

  describe('spring forward (America/Montreal, Sunday 2027-03-14: 02:00 EST jumps to 03:00 EDT)', () => {
    let fx: BookingsAccount;
    beforeAll(async () => {
      clock.set(new Date('2027-03-01T12:00:00.000Z'));
      fx = await provisionBookings(api);
    });

    it('slots before the gap are read in EST, the first slot after it is 03:00 EDT (07:00Z), one real hour after 01:30 EST', async () => {
      const nuit = fx.calendars.Nuit;
      expect((await bookAs(fx, { event_type_id: nuit, start_datetime: '2027-03-14T06:30:00Z' })).start_datetime).toBe('2027-03-14T06:30:00.000Z'); // 01:30 EST
      expect((await bookAs(fx, { event_type_id: nuit, start_datetime: '2027-03-14T07:00:00Z' })).start_datetime).toBe('2027-03-14T07:00:00.000Z'); // 03:00 EDT
      await expectOffCadence(fx, { event_type_id: nuit, start_datetime: '2027-03-14T07:15:00Z' }); // 03:15 EDT
    });

    it('the window closes at 06:00 EDT (10:00Z): 05:30 EDT is the last slot, 10:00Z is outside the hours (it would be 05:00 with the EST offset)', async () => {
      const nuit = fx.calendars.Nuit;
      expect((await bookAs(fx, { event_type_id: nuit, start_datetime: '2027-03-14T09:30:00Z', host_id: fx.marc })).host_id).toBe(fx.marc);
      await expectHostUnavailable(fx, { event_type_id: nuit, start_datetime: '2027-03-14T10:00:00Z', host_id: fx.marc }, ['outside_hours']);
    });

    it('cadence is wall-clock from the start of the window: a 45-minute cadence from 00:00 gives 03:00 EDT (07:00Z), not 07:15Z', async () => {
      const fresh = await provisionBookings(api);
      const quarts = fresh.calendars.Quarts;
      expect((await bookAs(fresh, { event_type_id: quarts, start_datetime: '2027-03-14T07:00:00Z' })).start_datetime).toBe('2027-03-14T07:00:00.000Z');
      await expectOffCadence(fresh, { event_type_id: quarts, start_datetime: '2027-03-14T07:15:00Z' });
      // Before the gap: 00:45 EST (05:45Z) is a slot, 01:15 EST (06:15Z) is not.
      expect((await bookAs(fresh, { event_type_id: quarts, start_datetime: '2027-03-14T05:45:00Z' })).start_datetime).toBe('2027-03-14T05:45:00.000Z');
      await expectOffCadence(fresh, { event_type_id: quarts, start_datetime: '2027-03-14T06:15:00Z' });
    });

    it('weekday hours move in UTC: Friday 09:00 EST is 14:00Z, Monday 09:00 EDT is 13:00Z', async () => {
      const consultation = fx.calendars.Consultation;
      const answers = { adresse: { value: '1 rue Principale' } };
      await expectHostUnavailable(fx, { event_type_id: consultation, start_datetime: '2027-03-12T13:00:00Z', host_id: fx.julie, form_responses: answers }, ['outside_hours']);
      expect((await bookAs(fx, { event_type_id: consultation, start_datetime: '2027-03-12T14:00:00Z', form_responses: answers })).host_id).toBe(fx.julie);
      expect((await bookAs(fx, { event_type_id: consultation, start_datetime: '2027-03-15T13:00:00Z', form_responses: answers })).start_datetime).toBe('2027-03-15T13:00:00.000Z');
      // Monday 16:30 EDT + 60 minutes ends after 17:00 EDT (21:00Z).
      await expectHostUnavailable(fx, { event_type_id: consultation, start_datetime: '2027-03-15T20:30:00Z', host_id: fx.julie, form_responses: answers }, ['outside_window']);
    });
  });

  describe('fall back (America/Montreal, Sunday 2027-11-07: 02:00 EDT goes back to 01:00 EST)', () => {
    let fx: BookingsAccount;
    beforeAll(async () => {
      clock.set(new Date('2027-10-20T12:00:00.000Z'));
      fx = await provisionBookings(api);
    });
    afterAll(() => clock.set(new Date('2027-03-01T12:00:00.000Z')));

    it('01:30 happens twice: 01:30 EDT (05:30Z) and 01:30 EST (06:30Z) are two distinct slots', async () => {
      const nuit = fx.calendars.Nuit;
      expect((await bookAs(fx, { event_type_id: nuit, start_datetime: '2027-11-07T05:30:00Z' })).start_datetime).toBe('2027-11-07T05:30:00.000Z');
      expect((await bookAs(fx, { event_type_id: nuit, start_datetime: '2027-11-07T06:30:00Z' })).start_datetime).toBe('2027-11-07T06:30:00.000Z');
      expect((await bookAs(fx, { event_type_id: nuit, start_datetime: '2027-11-07T06:00:00Z' })).start_datetime).toBe('2027-11-07T06:00:00.000Z'); // 01:00 EST
    });

    it('the window 00:00–06:00 lasts seven real hours: 05:30 EST (10:30Z) is a slot, 06:00 EST (11:00Z) is outside the hours', async () => {
      const nuit = fx.calendars.Nuit;
      expect((await bookAs(fx, { event_type_id: nuit, start_datetime: '2027-11-07T10:30:00Z' })).start_datetime).toBe('2027-11-07T10:30:00.000Z');
      await expectHostUnavailable(fx, { event_type_id: nuit, start_datetime: '2027-11-07T11:00:00Z', host_id: fx.marc }, ['outside_hours']);
      await expectOffCadence(fx, { event_type_id: nuit, start_datetime: '2027-11-07T06:45:00Z' }); // 01:45 EST
    });

    it('weekday hours after the change: Monday 2027-11-08 09:00 EST is 14:00Z, 13:00Z (08:00 EST) is outside the hours', async () => {
      const answers = { adresse: { value: '1 rue Principale' } };
      await expectHostUnavailable(fx, { event_type_id: fx.calendars.Consultation, start_datetime: '2027-11-08T13:00:00Z', host_id: fx.julie, form_responses: answers }, ['outside_hours']);
      expect((await bookAs(fx, { event_type_id: fx.calendars.Consultation, start_datetime: '2027-11-08T14:00:00Z', form_responses: answers })).host_id).toBe(fx.julie);
    });
  });

  describe('a Europe/Paris calendar booked with timezone America/Vancouver', () => {
    let fx: BookingsAccount;
    beforeAll(async () => {
      clock.set(new Date('2027-03-01T12:00:00.000Z'));
      fx = await provisionBookings(api);
    });

    it('availability is read in the calendar zone, not the request zone: 01:00 in Vancouver (PDT) is 09:00 in Paris (CET)', async () => {
      const booking = await bookAs(fx, { event_type_id: fx.calendars.Paris, start_datetime: '2027-03-15T01:00:00-07:00', timezone: 'America/Vancouver' });
      expect(booking).toMatchObject({ start_datetime: '2027-03-15T08:00:00.000Z', end_datetime: '2027-03-15T09:00:00.000Z', timezone: 'America/Vancouver', host_id: fx.marc });
      // 09:00 in Vancouver is 17:00 in Paris: outside the calendar's hours.
      await expectHostUnavailable(fx, { event_type_id: fx.calendars.Paris, start_datetime: '2027-03-15T09:00:00-07:00', timezone: 'America/Vancouver', host_id: fx.marc }, ['outside_hours']);
      // 11:30 in Paris is off the hourly cadence from 09:00.
      await expectOffCadence(fx, { event_type_id: fx.calendars.Paris, start_datetime: '2027-03-15T03:30:00-07:00', timezone: 'America/Vancouver' });
    });

    it('timezone never changes how a start without offset is read (UTC)', async () => {
      const booking = await bookAs(fx, { event_type_id: fx.calendars.Paris, start_datetime: '2027-03-22T08:00:00', timezone: 'America/Vancouver' });
      expect(booking.start_datetime).toBe('2027-03-22T08:00:00.000Z'); // 09:00 in Paris
    });

    it('Paris changes offset two weeks after Montreal: Monday 2027-03-29 09:00 CEST is 07:00Z and 11:00Z (13:00 CEST) is outside the hours', async () => {
      expect((await bookAs(fx, { event_type_id: fx.calendars.Paris, start_datetime: '2027-03-29T07:00:00Z', timezone: 'Europe/Paris' })).end_datetime).toBe('2027-03-29T08:00:00.000Z');
      await expectHostUnavailable(fx, { event_type_id: fx.calendars.Paris, start_datetime: '2027-03-29T04:00:00-07:00', host_id: fx.marc }, ['outside_hours']);
    });
  });
});
