import { FixedClock } from '@leadflow/shared-kernel';
import { db, expectStatus } from './support/contacts-fixtures';
import { lifecycle, placeDeal } from './support/pipeline-fixtures';
import {
  addBusyTime,
  book,
  bookingRow,
  BookingsAccount,
  bookingWrites,
  CONSULTATION,
  JULIE,
  newContact,
  postBooking,
  provisionBookings,
} from './support/bookings-fixtures';
import { TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * public-api-v1 › Endpoints › POST /v1/bookings and States › Booking, on real PostgreSQL and Redis with a
 * FixedClock at Monday 2027-03-01 12:00Z (07:00 in Montreal, EST = UTC-5 until 2027-03-14).
 */
describe('POST /v1/bookings', () => {
  const clock = new FixedClock(new Date('2027-03-01T12:00:00.000Z'));
  let api: TestApi;
  let fx: BookingsAccount;
  let token: string;
  let consultation: string;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    fx = await provisionBookings(api);
    token = fx.token;
    consultation = fx.calendars.Consultation;
  });
  afterAll(() => api.close());

  const answers = { adresse: { value: '12 rue des Érables, Laval' } };

  /** Expects a 400/404/409/422 with `code` and single-cause `details`, and that nothing was written. */
  async function expectRefusal(body: Record<string, unknown>, status: number, code: string, details: Record<string, unknown>): Promise<any> {
    const before = await bookingWrites(api, fx.account.account_id);
    const response = await postBooking(api, token, body);
    expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
    expect(response.body.details).toMatchObject(details);
    expect(await bookingWrites(api, fx.account.account_id)).toEqual(before);
    return response.body;
  }

  describe('success', () => {
    it('confirms the booking (201 { data }), adds the event to the host calendar, queues the host email, writes booking_created to the outbox and the activity log', async () => {
      const contact = await newContact(api, token);
      const response = await postBooking(api, token, {
        event_type_id: consultation,
        start_datetime: '2027-03-02T15:00:00Z',
        contact_id: contact.id,
        timezone: 'America/Montreal',
        notes: 'Cuisine à refaire',
        form_responses: { ...answers, type_projet: { value: 'cuisine' }, pieces: { value: ['cuisine', 'salon'] }, budget: { value: 25000 } },
      });
      expect(response.status).toBe(201);
      const booking = response.body.data;
      expect(booking).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        event_type_id: consultation,
        contact_id: contact.id,
        host_id: fx.julie,
        meeting_link: CONSULTATION.meeting_link,
        start_datetime: '2027-03-02T15:00:00.000Z',
        end_datetime: '2027-03-02T16:00:00.000Z',
        status: 'confirmed',
        timezone: 'America/Montreal',
        guest_name: null,
        guest_email: null,
        guest_phone: null,
        notes: 'Cuisine à refaire',
        form_responses: { ...answers, type_projet: { value: 'cuisine' }, pieces: { value: ['cuisine', 'salon'] }, budget: { value: 25000 } },
        cancelled_at: null,
        cancelled_by: null,
        created_at: '2027-03-01T12:00:00.000Z',
        updated_at: '2027-03-01T12:00:00.000Z',
      });
      const row = await bookingRow(api, booking.id);
      expect(row).toMatchObject({ account_id: fx.account.account_id, status: 'confirmed', host_id: fx.julie, archived_at: null });
      const events = await db(api).query(`SELECT host_id, calendar_id, start_at, end_at, removed_at FROM bookings.host_calendar_events WHERE booking_id = $1`, [booking.id]);
      expect(events).toEqual([
        { host_id: fx.julie, calendar_id: consultation, start_at: new Date('2027-03-02T15:00:00Z'), end_at: new Date('2027-03-02T16:00:00Z'), removed_at: null },
      ]);
      const emails = await db(api).query(`SELECT "to", subject, type, priority, status, contact_id, source FROM messaging.outgoing_emails WHERE account_id = $1`, [
        fx.account.account_id,
      ]);
      expect(emails).toEqual([
        {
          to: JULIE,
          subject: expect.stringContaining('Consultation'),
          type: 'booking_notification',
          priority: 1,
          status: 'queued',
          contact_id: contact.id,
          source: { kind: 'booking', id: booking.id },
        },
      ]);
      expect(emails[0].subject).toContain('10:00'); // 15:00Z is 10:00 in Montreal (EST)
      const outbox = await db(api).query(`SELECT type, payload FROM platform.outbox WHERE account_id = $1 AND payload->>'booking_id' = $2`, [fx.account.account_id, booking.id]);
      expect(outbox).toEqual([{ type: 'booking_created', payload: { booking_id: booking.id, contact_id: contact.id, booking } }]);
      const activity = await db(api).query(`SELECT type, contact_id, actor FROM platform.activity_log WHERE account_id = $1 AND data->>'booking_id' = $2`, [
        fx.account.account_id,
        booking.id,
      ]);
      expect(activity).toEqual([{ type: 'booking_created', contact_id: contact.id, actor: expect.objectContaining({ type: 'api_key', via: 'api_key' }) }]);
    });

    it('an account without any sender still books: the host notification is skipped, nothing else changes', async () => {
      const silent = await provisionBookings(api, { senders: [] });
      const contact = await newContact(api, silent.token);
      const booking = await book(api, silent.token, { event_type_id: silent.calendars.Rotation, start_datetime: '2027-03-02T15:00:00Z', contact_id: contact.id });
      expect(booking.status).toBe('confirmed');
      expect(await db(api).count('messaging.outgoing_emails', 'account_id = $1', [silent.account.account_id])).toBe(0);
      expect(await db(api).count('platform.outbox', `account_id = $1 AND type = 'booking_created'`, [silent.account.account_id])).toBe(1);
    });

    it('reads a start_datetime without offset as UTC', async () => {
      const contact = await newContact(api, token);
      const booking = await book(api, token, { event_type_id: consultation, start_datetime: '2027-03-03T15:00:00', contact_id: contact.id, form_responses: answers });
      expect(booking.start_datetime).toBe('2027-03-03T15:00:00.000Z');
    });

    it('reads a start_datetime with an offset as that instant', async () => {
      const contact = await newContact(api, token);
      const booking = await book(api, token, { event_type_id: consultation, start_datetime: '2027-03-03T13:00:00-05:00', contact_id: contact.id, form_responses: answers });
      expect(booking.start_datetime).toBe('2027-03-03T18:00:00.000Z');
    });

    it('books a guest (guest_name plus guest_email): the contact is found by email or created, and linked', async () => {
      const booking = await book(api, token, {
        event_type_id: consultation,
        start_datetime: '2027-03-04T15:00:00Z',
        guest_name: 'Louis Gagnon',
        guest_email: 'Louis.Gagnon@Example.com',
        guest_phone: '+1 514 555 0199',
        form_responses: answers,
      });
      expect(booking).toMatchObject({ guest_name: 'Louis Gagnon', guest_email: 'louis.gagnon@example.com', guest_phone: '+1 514 555 0199', host_id: fx.julie });
      const [contact] = await db(api).query(`SELECT email, first_name, last_name FROM contacts.contacts WHERE id = $1`, [booking.contact_id]);
      expect(contact).toEqual({ email: 'louis.gagnon@example.com', first_name: 'Louis', last_name: 'Gagnon' });
      // The same guest again: the same contact, hence one upcoming booking per contact per calendar.
      const again = await postBooking(api, token, {
        event_type_id: consultation,
        start_datetime: '2027-03-04T18:00:00Z',
        guest_name: 'Louis Gagnon',
        guest_email: 'louis.gagnon@example.com',
        form_responses: answers,
      });
      expect(again.status).toBe(409);
      expect(again.body.details).toEqual({ reason: 'already_booked', existing_booking_id: booking.id });
    });
  });

  describe('400 validation_error', () => {
    it('slot_in_past: a start at or before now', async () => {
      const contact = await newContact(api, token);
      await expectRefusal({ event_type_id: consultation, start_datetime: '2027-02-26T15:00:00Z', contact_id: contact.id, form_responses: answers }, 400, 'validation_error', {
        field: 'start_datetime',
        reason: 'slot_in_past',
      });
    });

    it('outside_window: sooner than min_notice_minutes (120) from now', async () => {
      const contact = await newContact(api, token);
      await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-01T13:30:00Z', contact_id: contact.id, form_responses: answers }, 400, 'validation_error', {
        field: 'start_datetime',
        reason: 'outside_window',
      });
    });

    it('outside_window: more than max_days_ahead (60) days ahead in the calendar zone', async () => {
      const contact = await newContact(api, token);
      // 2027-04-30 is day 60 (accepted by the window rule), 2027-05-03 is beyond.
      await expectRefusal({ event_type_id: consultation, start_datetime: '2027-05-03T14:00:00Z', contact_id: contact.id, form_responses: answers }, 400, 'validation_error', {
        field: 'start_datetime',
        reason: 'outside_window',
      });
      const lastDay = await book(api, token, { event_type_id: consultation, start_datetime: '2027-04-30T14:00:00Z', contact_id: contact.id, form_responses: answers });
      expect(lastDay.start_datetime).toBe('2027-04-30T14:00:00.000Z');
    });

    it('off_cadence: not a multiple of slot_interval_minutes (30) from the start of the availability window', async () => {
      const contact = await newContact(api, token);
      await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-02T15:15:00Z', contact_id: contact.id, form_responses: answers }, 400, 'validation_error', {
        field: 'start_datetime',
        reason: 'off_cadence',
      });
      await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-02T15:30:30Z', contact_id: contact.id, form_responses: answers }, 400, 'validation_error', {
        field: 'start_datetime',
        reason: 'off_cadence',
      });
    });

    it('invalid_datetime: start_datetime that is not an ISO 8601 date and time', async () => {
      for (const start of ['demain', '2027-03-02', '2027-13-02T15:00:00Z', '2027-03-02 15:00']) {
        await expectRefusal({ event_type_id: consultation, start_datetime: start, contact_id: 'x' }, 400, 'validation_error', { field: 'start_datetime', reason: 'invalid_datetime' });
      }
    });

    it('invalid_timezone: timezone must be an IANA name or null, bare offsets are refused', async () => {
      const contact = await newContact(api, token);
      for (const timezone of ['+05:00', '-0500', 'UTC+5', 'GMT-4', 'Mars/Olympus']) {
        await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-05T15:00:00Z', contact_id: contact.id, timezone }, 400, 'validation_error', {
          field: 'timezone',
          reason: 'invalid_timezone',
        });
      }
      const booking = await book(api, token, { event_type_id: consultation, start_datetime: '2027-03-05T15:00:00Z', contact_id: contact.id, timezone: null, form_responses: answers });
      expect(booking.timezone).toBeNull();
    });

    it('contact_or_guest_required: neither contact_id nor guest_name plus guest_email', async () => {
      for (const guest of [{}, { guest_name: 'Louis' }, { guest_email: 'louis@example.com' }, { guest_name: '  ', guest_email: 'louis@example.com' }]) {
        await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-05T18:00:00Z', ...guest }, 400, 'validation_error', {
          field: 'contact_id',
          reason: 'contact_or_guest_required',
        });
      }
      await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-05T18:00:00Z', guest_name: 'Louis', guest_email: 'pas-un-courriel' }, 400, 'validation_error', {
        field: 'guest_email',
        reason: 'invalid_format',
      });
    });

    it('contact_without_email: the contact has no email address', async () => {
      const contact = await newContact(api, token, { email: undefined, phone: '+15145550123' });
      await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-05T18:00:00Z', contact_id: contact.id, form_responses: answers }, 400, 'validation_error', {
        field: 'contact_id',
        reason: 'contact_without_email',
      });
    });

    it('questions: the failing question reason with field form_responses.<id> and details.questions', async () => {
      const contact = await newContact(api, token);
      const questions = CONSULTATION.questions.map((q) => ({ id: q.id, label: q.label, type: q.type, required: q.required ?? false, options: q.options ?? null }));
      const base = { event_type_id: consultation, start_datetime: '2027-03-05T18:00:00Z', contact_id: contact.id };
      const cases: [Record<string, unknown> | undefined, string, string][] = [
        [undefined, 'adresse', 'required'],
        [{ adresse: { value: '   ' } }, 'adresse', 'required'],
        [{ adresse: 'rue des Érables' }, 'adresse', 'invalid_type'],
        [{ adresse: { value: 12 } }, 'adresse', 'invalid_type'],
        [{ adresse: { value: 'x'.repeat(5001) } }, 'adresse', 'too_long'],
        [{ ...answers, type_projet: { value: 'garage' } }, 'type_projet', 'invalid_option'],
        [{ ...answers, pieces: { value: ['cuisine', 'garage'] } }, 'pieces', 'invalid_option'],
        [{ ...answers, pieces: { value: 'cuisine' } }, 'pieces', 'invalid_type'],
        [{ ...answers, budget: { value: '25000' } }, 'budget', 'invalid_type'],
        [{ ...answers, couleur: { value: 'bleu' } }, 'couleur', 'unknown_question'],
      ];
      for (const [formResponses, id, reason] of cases) {
        const body = await expectRefusal({ ...base, form_responses: formResponses }, 400, 'validation_error', { field: `form_responses.${id}`, reason });
        expect(body.details.questions).toEqual(questions);
      }
    });
  });

  describe('bad input', () => {
    it('end_datetime is refused (the duration is the calendar\'s)', async () => {
      const contact = await newContact(api, token);
      const response = await postBooking(api, token, {
        event_type_id: consultation,
        start_datetime: '2027-03-05T18:00:00Z',
        end_datetime: '2027-03-05T20:00:00Z',
        contact_id: contact.id,
        form_responses: answers,
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [{ field: 'end_datetime', reason: 'read_only' }] });
    });

    it('invalid JSON, unknown fields, wrong types, oversize strings and missing members answer 400, never 500', async () => {
      const invalid = await api.request({ method: 'POST', path: '/v1/bookings', token, rawBody: '{"event_type_id": ', headers: { 'content-type': 'application/json' } });
      expect(invalid.status).toBe(400);
      const cases: [unknown, string, string][] = [
        [{ event_type_id: consultation, start_datetime: '2027-03-05T18:00:00Z', guest_name: 'A', guest_email: 'a@example.com', project_id: 'x' }, 'project_id', 'unknown_field'],
        [{ event_type_id: 12, start_datetime: '2027-03-05T18:00:00Z' }, 'event_type_id', 'invalid_type'],
        [{ event_type_id: consultation, start_datetime: 1_800_000_000 }, 'start_datetime', 'invalid_type'],
        [{ event_type_id: consultation, start_datetime: '2027-03-05T18:00:00Z', form_responses: [1] }, 'form_responses', 'invalid_type'],
        [{ event_type_id: consultation, start_datetime: '2027-03-05T18:00:00Z', notes: 'x'.repeat(5001) }, 'notes', 'too_long'],
        [{ start_datetime: '2027-03-05T18:00:00Z' }, 'event_type_id', 'required'],
        [{ event_type_id: consultation }, 'start_datetime', 'required'],
      ];
      for (const [body, field, reason] of cases) {
        const response = await postBooking(api, token, body);
        expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 'validation_error' });
        expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, reason })]));
      }
      const array = await postBooking(api, token, [1, 2]);
      expect(array.status).toBe(400);
    });

    it('a body without Content-Type application/json answers 415', async () => {
      const response = await api.request({ method: 'POST', path: '/v1/bookings', token, rawBody: 'x', headers: { 'content-type': 'text/plain' } });
      expect(response.status).toBe(415);
    });
  });

  describe('404 resource_not_found with details.field', () => {
    it('event_type_id: unknown, not a UUID, inactive, or another account\'s calendar', async () => {
      const contact = await newContact(api, token);
      const other = await provisionBookings(api);
      for (const id of ['5b0e5d8e-6f51-4c43-9a57-0d4d1f1a0c01', 'pas-un-uuid', fx.calendars.Inactif, other.calendars.Consultation]) {
        await expectRefusal({ event_type_id: id, start_datetime: '2027-03-05T18:00:00Z', contact_id: contact.id, form_responses: answers }, 404, 'resource_not_found', {
          field: 'event_type_id',
        });
      }
    });

    it('contact_id: unknown or another account\'s contact', async () => {
      const other = await provisionBookings(api);
      const foreign = await newContact(api, other.token);
      for (const id of [foreign.id, '5b0e5d8e-6f51-4c43-9a57-0d4d1f1a0c02', 'nope']) {
        await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-05T18:00:00Z', contact_id: id, form_responses: answers }, 404, 'resource_not_found', {
          field: 'contact_id',
        });
      }
    });

    it('host_id: not a team member of the account', async () => {
      const contact = await newContact(api, token);
      const other = await provisionBookings(api);
      for (const id of [other.julie, '5b0e5d8e-6f51-4c43-9a57-0d4d1f1a0c03']) {
        await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-05T18:00:00Z', contact_id: contact.id, host_id: id, form_responses: answers }, 404, 'resource_not_found', {
          field: 'host_id',
        });
      }
    });
  });

  describe('409 duplicate_resource', () => {
    it('already_booked: one upcoming booking per contact per calendar, with details.existing_booking_id', async () => {
      const contact = await newContact(api, token);
      const first = await book(api, token, { event_type_id: consultation, start_datetime: '2027-03-08T15:00:00Z', contact_id: contact.id, form_responses: answers });
      await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-09T15:00:00Z', contact_id: contact.id, form_responses: answers }, 409, 'duplicate_resource', {
        reason: 'already_booked',
        existing_booking_id: first.id,
      });
      // Another calendar is another rule: allowed.
      await book(api, token, { event_type_id: fx.calendars.Rotation, start_datetime: '2027-03-09T18:00:00Z', contact_id: contact.id });
      // Once cancelled, the contact may book again.
      expectStatus(await api.request({ method: 'DELETE', path: `/v1/bookings/${first.id}`, token }), 200);
      await book(api, token, { event_type_id: consultation, start_datetime: '2027-03-09T15:00:00Z', contact_id: contact.id, form_responses: answers });
    });
  });

  describe('422 business_rule_violation', () => {
    it('contact_archived: the contact is archived', async () => {
      const contact = await newContact(api, token);
      await lifecycle(api, fx.account.account_id, contact.id, 'archive');
      await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-10T18:00:00Z', contact_id: contact.id, form_responses: answers }, 422, 'business_rule_violation', {
        reason: 'contact_archived',
      });
    });

    it('calendar_without_hosts: no active team member hosts the calendar', async () => {
      const contact = await newContact(api, token);
      await expectRefusal({ event_type_id: fx.calendars['Sans hôte'], start_datetime: '2027-03-10T18:00:00Z', contact_id: contact.id }, 422, 'business_rule_violation', {
        reason: 'calendar_without_hosts',
      });
    });

    it('host_not_on_calendar: the requested host does not host this calendar (or is inactive); never replaced', async () => {
      const contact = await newContact(api, token);
      for (const host of [fx.marc, fx.paul]) {
        await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-10T18:00:00Z', contact_id: contact.id, host_id: host, form_responses: answers }, 422, 'business_rule_violation', {
          reason: 'host_not_on_calendar',
        });
      }
    });

    it('lead_not_qualified: requires_qualified_lead needs a contact in an open pipeline stage, not disqualified', async () => {
      const stages = fx.account.pipelines!.ventes.stages;
      const noStage = await newContact(api, token);
      const won = await newContact(api, token);
      await placeDeal(api, token, won.id, stages.gagne);
      const disqualified = await newContact(api, token);
      await placeDeal(api, token, disqualified.id, stages.nouveau);
      await lifecycle(api, fx.account.account_id, disqualified.id, 'disqualify');
      for (const contact of [noStage, won, disqualified]) {
        await expectRefusal({ event_type_id: fx.calendars['Qualifié'], start_datetime: '2027-03-17T14:00:00Z', contact_id: contact.id }, 422, 'business_rule_violation', {
          reason: 'lead_not_qualified',
        });
      }
      await expectRefusal(
        { event_type_id: fx.calendars['Qualifié'], start_datetime: '2027-03-17T14:00:00Z', guest_name: 'Nouveau Venu', guest_email: 'nouveau.venu@example.com' },
        422,
        'business_rule_violation',
        { reason: 'lead_not_qualified' },
      );
      const qualified = await newContact(api, token);
      await placeDeal(api, token, qualified.id, stages.soumission);
      const booking = await book(api, token, { event_type_id: fx.calendars['Qualifié'], start_datetime: '2027-03-17T14:00:00Z', contact_id: qualified.id });
      expect(booking.status).toBe('confirmed');
    });

    describe('host_unavailable with details.causes (the requested host is honoured or rejected)', () => {
      it('outside_hours: no availability window holds the start (a Sunday)', async () => {
        const contact = await newContact(api, token);
        await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-07T15:00:00Z', contact_id: contact.id, host_id: fx.julie, form_responses: answers }, 422, 'business_rule_violation', {
          reason: 'host_unavailable',
          causes: ['outside_hours'],
        });
      });

      it('outside_window: the session starts in the window but ends after it closes (16:30 + 60 minutes)', async () => {
        const contact = await newContact(api, token);
        await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-09T21:30:00Z', contact_id: contact.id, host_id: fx.julie, form_responses: answers }, 422, 'business_rule_violation', {
          reason: 'host_unavailable',
          causes: ['outside_window'],
        });
      });

      it('other_booking: the host has an overlapping booking on another calendar', async () => {
        await book(api, token, { event_type_id: fx.calendars.Solo, start_datetime: '2027-03-10T15:00:00Z', contact_id: (await newContact(api, token)).id });
        const contact = await newContact(api, token);
        await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-10T14:30:00Z', contact_id: contact.id, host_id: fx.julie, form_responses: answers }, 422, 'business_rule_violation', {
          reason: 'host_unavailable',
          causes: ['other_booking'],
        });
      });

      it('blocked_time and google_busy: the host calendar (ExternalCalendarPort) blocks the slot', async () => {
        await addBusyTime(api, fx.account.account_id, fx.julie, 'blocked_time', '2027-03-11T15:00:00Z', '2027-03-11T16:00:00Z');
        await addBusyTime(api, fx.account.account_id, fx.julie, 'google_busy', '2027-03-11T18:30:00Z', '2027-03-11T19:00:00Z');
        const contact = await newContact(api, token);
        const base = { event_type_id: consultation, contact_id: contact.id, host_id: fx.julie, form_responses: answers };
        await expectRefusal({ ...base, start_datetime: '2027-03-11T15:30:00Z' }, 422, 'business_rule_violation', { reason: 'host_unavailable', causes: ['blocked_time'] });
        await expectRefusal({ ...base, start_datetime: '2027-03-11T18:00:00Z' }, 422, 'business_rule_violation', { reason: 'host_unavailable', causes: ['google_busy'] });
        await expectRefusal({ ...base, start_datetime: '2027-03-11T15:30:00Z', host_id: undefined }, 422, 'business_rule_violation', {
          reason: 'slot_unavailable',
          causes: ['blocked_time'],
        });
        // Busy times of another account's host never count; the hour after the busy time is free.
        const booking = await book(api, token, { ...base, start_datetime: '2027-03-11T19:00:00Z' });
        expect(booking.host_id).toBe(fx.julie);
      });

      it('busy times recorded through the operator route (POST /admin/v1/accounts/{id}/calendars/{calendar_id}/busy-times) produce google_busy', async () => {
        const path = `/accounts/${fx.account.account_id}/calendars/${consultation}/busy-times`;
        const created = await api.admin('POST', path, { host_id: fx.julie, kind: 'google_busy', start_datetime: '2027-03-19T14:00:00', end_datetime: '2027-03-19T15:00:00Z' });
        expect(created.status).toBe(201);
        expect(created.body.data).toEqual({
          id: expect.any(String),
          host_id: fx.julie,
          kind: 'google_busy',
          start_datetime: '2027-03-19T14:00:00.000Z',
          end_datetime: '2027-03-19T15:00:00.000Z',
        });
        const contact = await newContact(api, token);
        await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-19T13:30:00Z', contact_id: contact.id, host_id: fx.julie, form_responses: answers }, 422, 'business_rule_violation', {
          reason: 'host_unavailable',
          causes: ['google_busy'],
        });
        // Refusals: another account's calendar (404), a team member who does not host the calendar, a bad period or kind (400).
        const other = await provisionBookings(api);
        const foreign = await api.admin('POST', `/accounts/${fx.account.account_id}/calendars/${other.calendars.Consultation}/busy-times`, {
          host_id: fx.julie,
          kind: 'blocked_time',
          start_datetime: '2027-03-19T14:00:00Z',
          end_datetime: '2027-03-19T15:00:00Z',
        });
        expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 'resource_not_found' });
        const cases: [Record<string, unknown>, unknown][] = [
          [{ host_id: fx.marc }, { field: 'host_id', reason: 'not_on_calendar' }],
          [{ end_datetime: '2027-03-19T14:00:00Z' }, { field: 'end_datetime', reason: 'invalid_value' }],
          [{ start_datetime: 'demain' }, { field: 'start_datetime', reason: 'invalid_datetime' }],
          [{ kind: 'vacances' }, [expect.objectContaining({ field: 'kind', reason: 'invalid_value' })]],
        ];
        for (const [change, details] of cases) {
          const response = await api.admin('POST', path, { host_id: fx.julie, kind: 'blocked_time', start_datetime: '2027-03-19T14:00:00Z', end_datetime: '2027-03-19T15:00:00Z', ...change });
          expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({ status: 400, code: 'validation_error', details });
        }
      });

      it('several causes at once, in the spec order', async () => {
        await addBusyTime(api, fx.account.account_id, fx.julie, 'google_busy', '2027-03-12T21:00:00Z', '2027-03-12T23:00:00Z');
        await addBusyTime(api, fx.account.account_id, fx.julie, 'blocked_time', '2027-03-12T21:00:00Z', '2027-03-12T21:15:00Z');
        const contact = await newContact(api, token);
        await expectRefusal({ event_type_id: consultation, start_datetime: '2027-03-12T21:30:00Z', contact_id: contact.id, host_id: fx.julie, form_responses: answers }, 422, 'business_rule_violation', {
          reason: 'host_unavailable',
          causes: ['outside_window', 'google_busy'],
        });
      });

      it('daily_max: the host already has daily_max sessions that local day', async () => {
        await book(api, token, { event_type_id: fx.calendars.Solo, start_datetime: '2027-03-08T15:00:00Z', contact_id: (await newContact(api, token)).id });
        const contact = await newContact(api, token);
        await expectRefusal({ event_type_id: fx.calendars.Solo, start_datetime: '2027-03-08T19:00:00Z', contact_id: contact.id, host_id: fx.julie }, 422, 'business_rule_violation', {
          reason: 'host_unavailable',
          causes: ['daily_max'],
        });
        await expectRefusal({ event_type_id: fx.calendars.Solo, start_datetime: '2027-03-08T19:00:00Z', contact_id: contact.id }, 422, 'business_rule_violation', {
          reason: 'slot_unavailable',
          causes: ['daily_max'],
        });
      });
    });

    it('a taken one-seat slot: without host_id slot_unavailable (no host available, causes merged), with host_id host_unavailable other_booking (issue 13, item 1)', async () => {
      await book(api, token, { event_type_id: fx.calendars.Solo, start_datetime: '2027-03-16T14:00:00Z', contact_id: (await newContact(api, token)).id });
      const contact = await newContact(api, token);
      await expectRefusal({ event_type_id: fx.calendars.Solo, start_datetime: '2027-03-16T14:00:00Z', contact_id: contact.id }, 422, 'business_rule_violation', {
        reason: 'slot_unavailable',
        causes: ['other_booking', 'daily_max'],
      });
      await expectRefusal({ event_type_id: fx.calendars.Solo, start_datetime: '2027-03-16T14:00:00Z', contact_id: contact.id, host_id: fx.julie }, 422, 'business_rule_violation', {
        reason: 'host_unavailable',
        causes: ['other_booking', 'daily_max'],
      });
    });

    it('group sessions: capacity 3 seats three contacts in one session with one host, the fourth gets slot_unavailable', async () => {
      const saturday = { event_type_id: fx.calendars.Atelier, start_datetime: '2027-03-06T15:00:00Z' };
      for (let seat = 0; seat < 3; seat += 1) {
        const booking = await book(api, token, { ...saturday, contact_id: (await newContact(api, token)).id });
        expect(booking.host_id).toBe(fx.julie);
      }
      await expectRefusal({ ...saturday, contact_id: (await newContact(api, token)).id }, 422, 'business_rule_violation', { reason: 'slot_unavailable' });
    });
  });

  describe('host assignment without host_id', () => {
    it('the contact\'s sales rep when they host the calendar and are available, else the rotation', async () => {
      const contact = await newContact(api, token);
      await db(api).query(`UPDATE contacts.contacts SET sales_rep_id = $2 WHERE id = $1`, [contact.id, fx.marc]);
      const booking = await book(api, token, { event_type_id: fx.calendars.Rotation, start_datetime: '2027-03-18T14:00:00Z', contact_id: contact.id });
      expect(booking.host_id).toBe(fx.marc);

      const busyRep = await newContact(api, token);
      await db(api).query(`UPDATE contacts.contacts SET sales_rep_id = $2 WHERE id = $1`, [busyRep.id, fx.marc]);
      await addBusyTime(api, fx.account.account_id, fx.marc, 'google_busy', '2027-03-18T15:00:00Z', '2027-03-18T16:00:00Z');
      const other = await book(api, token, { event_type_id: fx.calendars.Rotation, start_datetime: '2027-03-18T15:00:00Z', contact_id: busyRep.id });
      expect(other.host_id).toBe(fx.julie);

      // A sales rep who does not host the calendar is skipped.
      const notHost = await newContact(api, token);
      await db(api).query(`UPDATE contacts.contacts SET sales_rep_id = $2 WHERE id = $1`, [notHost.id, fx.marc]);
      const solo = await book(api, token, { event_type_id: fx.calendars.Solo, start_datetime: '2027-03-18T18:00:00Z', contact_id: notHost.id });
      expect(solo.host_id).toBe(fx.julie);
    });

    it('fair rotation: fewest upcoming bookings on the calendar, then least recently booked, then id', async () => {
      const fresh = await provisionBookings(api);
      const [first, second] = [fresh.julie, fresh.marc].sort();
      const hosts: string[] = [];
      for (const start of ['2027-03-22T14:00:00Z', '2027-03-22T15:00:00Z', '2027-03-22T16:00:00Z', '2027-03-22T17:00:00Z']) {
        clock.advance(60_000);
        const contact = await newContact(api, fresh.token);
        hosts.push((await book(api, fresh.token, { event_type_id: fresh.calendars.Rotation, start_datetime: start, contact_id: contact.id })).host_id);
      }
      expect(hosts).toEqual([first, second, first, second]);
      clock.set(new Date('2027-03-01T12:00:00.000Z'));
    });
  });

  describe('scopes and plan', () => {
    it('403 insufficient_scope without bookings:write, 403 feature_not_available without the bookings module', async () => {
      const reader = await postBooking(api, fx.account.api_keys.reader.key, { event_type_id: consultation, start_datetime: '2027-03-05T18:00:00Z' });
      expect(reader.status).toBe(403);
      expect(reader.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'bookings:write' } });
      const withoutModule = await provisionBookings(api, { features: ['public_api', 'quotes'] });
      const response = await postBooking(api, withoutModule.token, { event_type_id: withoutModule.calendars.Consultation, start_datetime: '2027-03-05T18:00:00Z' });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'feature_not_available', details: { feature: 'bookings' } });
    });
  });
});
