import { FixedClock } from '@leadflow/shared-kernel';
import { db } from './support/contacts-fixtures';
import { BookingsAccount, newContact, postBooking, provisionBookings } from './support/bookings-fixtures';
import { TestApi } from './support/test-api';

/**
 * Two concurrent requests for the last seat of a slot never both succeed (public-api-v1 › POST
 * /v1/bookings): transaction-level advisory locks on the contact and the hosts, then a recheck, on real
 * PostgreSQL with parallel requests.
 */
describe('bookings: concurrent requests', () => {
  const clock = new FixedClock(new Date('2027-03-01T12:00:00.000Z'));
  let api: TestApi;
  let fx: BookingsAccount;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    fx = await provisionBookings(api);
  });
  afterAll(() => api.close());

  const statuses = (responses: { status: number }[]) => responses.map((response) => response.status).sort();

  it('the last seat: six parallel POSTs for one single-seat slot give exactly one 201, the others 422 slot_unavailable', async () => {
    const contacts = await Promise.all(Array.from({ length: 6 }, () => newContact(api, fx.token)));
    const responses = await Promise.all(
      contacts.map((contact) => postBooking(api, fx.token, { event_type_id: fx.calendars.Solo, start_datetime: '2027-03-02T15:00:00Z', contact_id: contact.id })),
    );
    expect(statuses(responses)).toEqual([201, 422, 422, 422, 422, 422]);
    for (const response of responses.filter((r) => r.status === 422)) expect(response.body.details).toMatchObject({ reason: 'slot_unavailable' });
    expect(await db(api).count('bookings.bookings', `calendar_id = $1 AND start_at = '2027-03-02T15:00:00Z'`, [fx.calendars.Solo])).toBe(1);
  });

  it('the last seats of a group session: six parallel POSTs for a 3-seat session give exactly three 201', async () => {
    const contacts = await Promise.all(Array.from({ length: 6 }, () => newContact(api, fx.token)));
    const responses = await Promise.all(
      contacts.map((contact) => postBooking(api, fx.token, { event_type_id: fx.calendars.Atelier, start_datetime: '2027-03-06T15:00:00Z', contact_id: contact.id })),
    );
    expect(statuses(responses)).toEqual([201, 201, 201, 422, 422, 422]);
    expect(await db(api).count('bookings.bookings', `calendar_id = $1 AND start_at = '2027-03-06T15:00:00Z'`, [fx.calendars.Atelier])).toBe(3);
  });

  it('one host, two calendars, overlapping slots requested in parallel with host_id: exactly one 201, the other host_unavailable other_booking', async () => {
    const [a, b] = await Promise.all([newContact(api, fx.token), newContact(api, fx.token)]);
    const responses = await Promise.all([
      postBooking(api, fx.token, { event_type_id: fx.calendars.Solo, start_datetime: '2027-03-03T15:00:00Z', contact_id: a.id, host_id: fx.julie }),
      postBooking(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: '2027-03-03T15:00:00Z', contact_id: b.id, host_id: fx.julie }),
    ]);
    expect(statuses(responses)).toEqual([201, 422]);
    expect(responses.find((r) => r.status === 422)!.body.details).toEqual({ reason: 'host_unavailable', causes: ['other_booking'] });
  });

  it('one contact, parallel POSTs for different slots of one calendar: exactly one 201, the others 409 already_booked', async () => {
    const contact = await newContact(api, fx.token);
    const starts = ['2027-03-04T14:00:00Z', '2027-03-04T15:00:00Z', '2027-03-04T16:00:00Z', '2027-03-04T17:00:00Z'];
    const responses = await Promise.all(starts.map((start) => postBooking(api, fx.token, { event_type_id: fx.calendars.Rotation, start_datetime: start, contact_id: contact.id })));
    expect(statuses(responses)).toEqual([201, 409, 409, 409]);
    const winner = responses.find((r) => r.status === 201)!.body.data.id;
    for (const response of responses.filter((r) => r.status === 409)) expect(response.body.details).toEqual({ reason: 'already_booked', existing_booking_id: winner });
  });
});
