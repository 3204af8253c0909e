import { getQueueToken } from '@nestjs/bullmq';
import { Test, TestingModule } from '@nestjs/testing';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { AccountId, asAccountId, decodeCursor, newId, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { consumerQueueName, INTEGRATION_EVENT_BATCH_JOB, OutboxWriter, PlatformModule, QueueModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import {
  BookingRepository,
  BookingsReadModel,
  BookingState,
  Calendar,
  CalendarRepository,
  ContactBookingsReassignment,
  ExternalCalendarPort,
} from '@leadflow/bookings-core';
import { BookingsJobsModule } from '../src';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows are asserted field by field */

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const QUIET = { log: () => undefined, error: () => undefined, warn: () => undefined, debug: () => undefined, verbose: () => undefined };
const at = (iso: string) => new Date(iso);

/**
 * The bookings adapters on real PostgreSQL and Redis, through BookingsJobsModule (the worker's module):
 * calendars and bookings (tenant filters, the name's uniqueness, the table's checks, the hosts' advisory
 * locks, overlaps, sessions and loads), the list read model's keyset on `(start_at, id)`, the hosts'
 * calendars (busy times, events), the contacts-merge reassignment and the `contact_deleted` consumer
 * on BullMQ (a replayed event archives nothing twice).
 */
describe('Bookings adapters (PostgreSQL, Redis, BullMQ)', () => {
  let services: TestServices;
  let moduleRef: TestingModule;
  let db: DataSource;
  let calendars: CalendarRepository;
  let bookings: BookingRepository;
  let reads: BookingsReadModel;
  let external: ExternalCalendarPort;
  let reassignment: ContactBookingsReassignment;
  let transactions: TransactionHost;

  beforeAll(async () => {
    services = await createTestServices();
    moduleRef = await Test.createTestingModule({ imports: [PlatformModule.forRoot({ config: services.config() }), QueueModule.forRoot(), BookingsJobsModule] })
      .setLogger(QUIET)
      .compile();
    await moduleRef.init();
    db = moduleRef.get(DataSource);
    calendars = moduleRef.get(CalendarRepository);
    bookings = moduleRef.get(BookingRepository);
    reads = moduleRef.get(BookingsReadModel);
    external = moduleRef.get(ExternalCalendarPort);
    reassignment = moduleRef.get(ContactBookingsReassignment);
    transactions = moduleRef.get(TransactionHost);
  });
  afterAll(async () => {
    await moduleRef?.close();
    await services?.dispose();
  });

  const calendar = async (accountId: AccountId, overrides: Partial<Calendar> = {}): Promise<Calendar> => {
    const value: Calendar = {
      id: newId(),
      accountId,
      name: `Consultation ${newId().slice(-8)}`,
      durationMinutes: 30,
      slotIntervalMinutes: 30,
      minNoticeMinutes: 60,
      maxDaysAhead: 30,
      dailyMax: null,
      capacity: 1,
      timezone: 'America/Montreal',
      availability: [],
      questions: [],
      requiresQualifiedLead: false,
      isActive: true,
      meetingLink: null,
      hostIds: [newId()],
      ...overrides,
    };
    await transactions.run(() => calendars.insert(value));
    return value;
  };

  const booking = async (cal: Calendar, overrides: Partial<BookingState> = {}): Promise<BookingState> => {
    const start = overrides.start ?? at('2026-07-01T14:00:00.000Z');
    const value: BookingState = {
      id: newId(),
      accountId: cal.accountId,
      calendarId: cal.id,
      contactId: newId(),
      hostId: cal.hostIds[0],
      meetingLink: null,
      start,
      end: new Date(start.getTime() + 30 * 60_000),
      status: 'confirmed',
      timezone: 'America/Montreal',
      guestName: null,
      guestEmail: null,
      guestPhone: null,
      notes: null,
      formResponses: {},
      cancelledAt: null,
      cancelledBy: null,
      archivedAt: null,
      createdAt: at('2026-06-01T12:00:00.000Z'),
      updatedAt: at('2026-06-01T12:00:00.000Z'),
      ...overrides,
    };
    await transactions.run(() => bookings.insert(value));
    return value;
  };

  it("a calendar reads back with its hosts sorted; another account's calendar id and a non-UUID id read as missing", async () => {
    const a = asAccountId(newId());
    const hosts = [newId(), newId(), newId()];
    const made = await calendar(a, { hostIds: hosts, availability: [{ day: 'monday', start: '09:00', end: '17:00' }] as any, dailyMax: 4, capacity: 3 });
    const found = await calendars.find(a, made.id);
    expect(found).toEqual({ ...made, hostIds: [...hosts].sort() });
    expect(await calendars.find(asAccountId(newId()), made.id)).toBeNull();
    expect(await calendars.find(a, 'cal-1')).toBeNull();
  });

  it("a calendar name is unique within its account (calendars_name_idx) and free in another account", async () => {
    const a = asAccountId(newId());
    const first = await calendar(a);
    await expect(calendar(a, { name: first.name })).rejects.toMatchObject({ driverError: { code: '23505', constraint: 'calendars_name_idx' } });
    await calendar(asAccountId(newId()), { name: first.name });
    expect(await db.query(`SELECT count(*)::int AS n FROM bookings.calendars WHERE account_id = $1`, [a])).toEqual([{ n: 1 }]);
  });

  it('the table refuses a cancelled booking without cancelled_at, and an end not after the start (CHECK)', async () => {
    const cal = await calendar(asAccountId(newId()));
    await expect(booking(cal, { status: 'cancelled', cancelledAt: null })).rejects.toMatchObject({ driverError: { code: '23514' } });
    await expect(booking(cal, { start: at('2026-07-01T14:00:00.000Z'), end: at('2026-07-01T14:00:00.000Z') })).rejects.toMatchObject({ driverError: { code: '23514' } });
    expect(await db.query(`SELECT count(*)::int AS n FROM bookings.bookings WHERE calendar_id = $1`, [cal.id])).toEqual([{ n: 0 }]);
  });

  it("another account's booking id, an archived booking and a non-UUID id read as missing; an update writes only in its account", async () => {
    const a = asAccountId(newId());
    const cal = await calendar(a);
    const mine = await booking(cal, { formResponses: { budget: { value: 5000 } } });
    const archived = await booking(cal, { archivedAt: new Date() });
    expect(await transactions.run(() => bookings.find(a, mine.id, { lock: true }))).toEqual(mine);
    expect(await bookings.find(asAccountId(newId()), mine.id)).toBeNull();
    expect(await bookings.find(a, archived.id)).toBeNull();
    expect(await bookings.find(a, 'b-1')).toBeNull();
    const cancelledAt = at('2026-06-02T10:00:00.000Z');
    await transactions.run(() => bookings.update({ ...mine, accountId: newId(), status: 'cancelled', cancelledAt, cancelledBy: 'contact' }));
    expect((await db.query(`SELECT status FROM bookings.bookings WHERE id = $1`, [mine.id]))[0].status).toBe('confirmed');
    await transactions.run(() => bookings.update({ ...mine, status: 'cancelled', cancelledAt, cancelledBy: 'contact', updatedAt: cancelledAt }));
    expect((await db.query(`SELECT status, cancelled_at, cancelled_by FROM bookings.bookings WHERE id = $1`, [mine.id]))[0]).toEqual({ status: 'cancelled', cancelled_at: cancelledAt, cancelled_by: 'contact' });
  });

  it("a host's busy bookings are the confirmed, non-archived ones of that account overlapping the period (a booking ending at its start does not)", async () => {
    const a = asAccountId(newId());
    const host = newId();
    const cal = await calendar(a, { hostIds: [host] });
    const other = await calendar(a, { hostIds: [host] });
    const overlapping = await booking(cal, { hostId: host, start: at('2026-07-01T13:45:00.000Z') });
    const elsewhere = await booking(other, { hostId: host, start: at('2026-07-01T14:15:00.000Z') });
    await booking(cal, { hostId: host, start: at('2026-07-01T13:30:00.000Z') }); // ends at 14:00
    await booking(cal, { hostId: host, start: at('2026-07-01T14:00:00.000Z'), status: 'cancelled', cancelledAt: new Date() });
    await booking(cal, { hostId: host, start: at('2026-07-01T14:00:00.000Z'), archivedAt: new Date() });
    await booking(cal, { hostId: newId(), start: at('2026-07-01T14:00:00.000Z') });
    const otherAccount = await calendar(asAccountId(newId()), { hostIds: [host] });
    await booking(otherAccount, { hostId: host, start: at('2026-07-01T14:00:00.000Z') });
    const busy = await bookings.overlapping(a, [host], at('2026-07-01T14:00:00.000Z'), at('2026-07-01T14:30:00.000Z'));
    expect(busy.map((entry) => entry.id).sort()).toEqual([overlapping.id, elsewhere.id].sort());
    expect(busy.find((entry) => entry.id === elsewhere.id)).toMatchObject({ hostId: host, calendarId: other.id });
  });

  it('sessions per host count distinct start times on the calendar (seats of one group session count once), cancelled and archived left out; loads count upcoming confirmed bookings', async () => {
    const a = asAccountId(newId());
    const [h1, h2] = [newId(), newId()];
    const cal = await calendar(a, { hostIds: [h1, h2], capacity: 3 });
    const ten = at('2026-07-02T14:00:00.000Z');
    await booking(cal, { hostId: h1, start: ten, createdAt: at('2026-06-01T00:00:00.000Z') });
    await booking(cal, { hostId: h1, start: ten, createdAt: at('2026-06-03T00:00:00.000Z') });
    await booking(cal, { hostId: h1, start: at('2026-07-02T15:00:00.000Z') });
    await booking(cal, { hostId: h2, start: ten, status: 'cancelled', cancelledAt: new Date() });
    await booking(cal, { hostId: h2, start: at('2026-07-02T16:00:00.000Z'), archivedAt: new Date() });
    await booking(cal, { hostId: h2, start: at('2026-06-01T16:00:00.000Z'), status: 'completed' });
    const sessions = await bookings.sessionsPerHost(a, cal.id, [h1, h2], at('2026-07-02T00:00:00.000Z'), at('2026-07-03T00:00:00.000Z'));
    expect(Object.fromEntries(sessions)).toEqual({ [h1]: 2 });
    const loads = await bookings.loads(a, cal.id, [h1, h2], at('2026-06-15T00:00:00.000Z'));
    expect(Object.fromEntries(loads.map((load) => [load.hostId, load.upcoming]))).toEqual({ [h1]: 3, [h2]: 0 }); // h2: cancelled, archived (left out) and past completed
    expect(loads.find((load) => load.hostId === h1)?.lastBookedAt).toEqual(at('2026-06-03T00:00:00.000Z'));
  });

  it("the hosts' advisory lock serialises two bookings of the same host; another host's booking does not wait", async () => {
    const a = asAccountId(newId());
    const [h1, h2] = [newId(), newId()];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const first = transactions.run(async () => {
      await bookings.lockHosts(a, [h2, h1]);
      locked();
      await released;
    });
    await taken;
    await transactions.run(() => bookings.lockHosts(a, [newId()])); // another host: at once
    await transactions.run(() => bookings.lockHosts(asAccountId(newId()), [h1])); // same host id, another account: at once
    let second = false;
    const waiting = transactions.run(() => bookings.lockHosts(a, [h1])).then(() => (second = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second).toBe(false);
    release();
    await first;
    await waiting;
    expect(second).toBe(true);
  });

  it("a contact's upcoming booking on a calendar is the earliest future confirmed one of that account", async () => {
    const a = asAccountId(newId());
    const cal = await calendar(a);
    const contactId = newId();
    const now = at('2026-06-15T00:00:00.000Z');
    await booking(cal, { contactId, start: at('2026-06-10T14:00:00.000Z') });
    const soon = await booking(cal, { contactId, start: at('2026-06-20T14:00:00.000Z') });
    await booking(cal, { contactId, start: at('2026-06-25T14:00:00.000Z') });
    await booking(cal, { contactId, start: at('2026-06-18T14:00:00.000Z'), status: 'cancelled', cancelledAt: now });
    expect(await bookings.findUpcomingForContact(a, cal.id, contactId, now)).toBe(soon.id);
    expect(await bookings.findUpcomingForContact(asAccountId(newId()), cal.id, contactId, now)).toBeNull();
  });

  it('the list pages on (start_at, id) descending with cursors holding the start time, keeps to the account, leaves archived bookings out and applies its filters', async () => {
    const a = asAccountId(newId());
    const cal = await calendar(a);
    const other = await calendar(a);
    const contactId = newId();
    const made: BookingState[] = [];
    for (const start of ['2026-08-01T14:00:00.000Z', '2026-08-01T14:00:00.000Z', '2026-08-02T14:00:00.000Z', '2026-08-03T14:00:00.000Z']) made.push(await booking(cal, { start: at(start), contactId }));
    const onOther = await booking(other, { start: at('2026-08-04T14:00:00.000Z'), status: 'cancelled', cancelledAt: new Date() });
    await booking(cal, { archivedAt: new Date(), start: at('2026-08-05T14:00:00.000Z') });
    await booking(await calendar(asAccountId(newId())), { start: at('2026-08-06T14:00:00.000Z') });
    const none = { from: null, to: null, status: null, calendarId: null, contactId: null };
    const expected = [onOther, ...made].sort((x, y) => y.start.getTime() - x.start.getTime() || (y.id < x.id ? -1 : 1)).map((entry) => entry.id);
    const first = await reads.list(a, none, { limit: 2, after: null });
    expect(first.pagination).toMatchObject({ has_more: true, total_count: 5 });
    expect(decodeCursor(first.pagination.next_cursor!)?.createdAt).toEqual(expected[1] === onOther.id ? onOther.start : made.find((entry) => entry.id === expected[1])!.start);
    const second = await reads.list(a, none, { limit: 2, after: decodeCursor(first.pagination.next_cursor!) });
    const third = await reads.list(a, none, { limit: 2, after: decodeCursor(second.pagination.next_cursor!) });
    expect(third.pagination).toMatchObject({ has_more: false, next_cursor: null });
    expect([...first.data, ...second.data, ...third.data].map((view: any) => view.id)).toEqual(expected);
    expect((await reads.list(a, { ...none, status: 'cancelled' }, { limit: 10, after: null })).data.map((view: any) => view.id)).toEqual([onOther.id]);
    expect((await reads.list(a, { ...none, calendarId: cal.id, contactId }, { limit: 10, after: null })).pagination.total_count).toBe(4);
    expect((await reads.list(a, { ...none, from: at('2026-08-02T00:00:00.000Z'), to: at('2026-08-03T23:00:00.000Z') }, { limit: 10, after: null })).pagination.total_count).toBe(2);
  });

  it("the hosts' calendars: busy times of those hosts in the period for that account; a booking's event is removed once (removed_at kept)", async () => {
    const a = asAccountId(newId());
    const host = newId();
    await transactions.run(() => external.recordBusyTime(a, { id: newId(), hostId: host, cause: 'blocked_time', start: at('2026-07-01T13:00:00.000Z'), end: at('2026-07-01T15:00:00.000Z') }));
    await transactions.run(() => external.recordBusyTime(a, { id: newId(), hostId: host, cause: 'google_busy', start: at('2026-07-01T16:00:00.000Z'), end: at('2026-07-01T17:00:00.000Z') }));
    await transactions.run(() => external.recordBusyTime(asAccountId(newId()), { id: newId(), hostId: host, cause: 'blocked_time', start: at('2026-07-01T13:00:00.000Z'), end: at('2026-07-01T15:00:00.000Z') }));
    const busy = await external.busyTimes(a, [host], at('2026-07-01T14:00:00.000Z'), at('2026-07-01T16:00:00.000Z'));
    expect(busy).toEqual([{ hostId: host, cause: 'blocked_time', start: at('2026-07-01T13:00:00.000Z'), end: at('2026-07-01T15:00:00.000Z') }]);
    expect(await external.busyTimes(a, [], at('2026-07-01T00:00:00.000Z'), at('2026-07-02T00:00:00.000Z'))).toEqual([]);
    const bookingId = newId();
    await transactions.run(() => external.addEvent(a, { bookingId, calendarId: newId(), hostId: host, title: 'Consultation', start: at('2026-07-01T14:00:00.000Z'), end: at('2026-07-01T14:30:00.000Z') }));
    await transactions.run(() => external.removeEvent(asAccountId(newId()), bookingId));
    expect((await db.query(`SELECT removed_at FROM bookings.host_calendar_events WHERE booking_id = $1`, [bookingId]))[0].removed_at).toBeNull();
    await transactions.run(() => external.removeEvent(a, bookingId));
    const [{ removed_at: removedAt }] = await db.query(`SELECT removed_at FROM bookings.host_calendar_events WHERE booking_id = $1`, [bookingId]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await transactions.run(() => external.removeEvent(a, bookingId));
    expect((await db.query(`SELECT removed_at FROM bookings.host_calendar_events WHERE booking_id = $1`, [bookingId]))[0].removed_at).toEqual(removedAt);
  });

  it("the contacts merge moves the contact's non-archived bookings of that account, answered in start order", async () => {
    const a = asAccountId(newId());
    const cal = await calendar(a);
    const [from, to] = [newId(), newId()];
    const later = await booking(cal, { contactId: from, start: at('2026-09-02T14:00:00.000Z') });
    const earlier = await booking(cal, { contactId: from, start: at('2026-09-01T14:00:00.000Z') });
    const archived = await booking(cal, { contactId: from, archivedAt: new Date() });
    const elsewhere = await booking(await calendar(asAccountId(newId())), { contactId: from });
    expect(await reassignment.idsOf(a, from)).toEqual([earlier.id, later.id]);
    expect(await transactions.run(() => reassignment.reassign(a, from, to, new Date()))).toEqual([earlier.id, later.id]);
    const owners = await db.query(`SELECT id, contact_id FROM bookings.bookings WHERE id = ANY($1)`, [[later.id, earlier.id, archived.id, elsewhere.id]]);
    expect(Object.fromEntries(owners.map((row: any) => [row.id, row.contact_id]))).toEqual({ [later.id]: to, [earlier.id]: to, [archived.id]: from, [elsewhere.id]: from });
  });

  it("a contact_deleted event on the bookings consumer queue archives that account's bookings of the contacts; the same event delivered again archives nothing twice", async () => {
    const a = asAccountId(newId());
    const cal = await calendar(a);
    const contactId = newId();
    const mine = await booking(cal, { contactId });
    const elsewhere = await booking(await calendar(asAccountId(newId())), { contactId });
    const eventId = newId();
    await moduleRef.get(OutboxWriter).append([{ id: eventId, type: 'contact_deleted', accountId: a, occurredAt: new Date(), actor: SYSTEM_ACTOR, payload: { contact_ids: [contactId] } }]);
    const queue: Queue = moduleRef.get(getQueueToken(consumerQueueName('bookings')));
    await queue.add(INTEGRATION_EVENT_BATCH_JOB, { events: [{ id: eventId, type: 'contact_deleted' }] }, { jobId: `test-${newId()}` });
    const archived = await waitFor(async () => (await db.query(`SELECT archived_at FROM bookings.bookings WHERE id = $1`, [mine.id]))[0].archived_at, (value) => value !== null, 'the archive');
    const replay = await queue.add(INTEGRATION_EVENT_BATCH_JOB, { events: [{ id: eventId, type: 'contact_deleted' }] }, { jobId: `test-${newId()}` });
    await waitFor(async () => {
      const job = await queue.getJob(replay.id!);
      return job ? (job.finishedOn ?? null) : 'removed';
    }, (value) => value !== null, 'the replay to finish');
    expect((await db.query(`SELECT archived_at FROM bookings.bookings WHERE id = $1`, [mine.id]))[0].archived_at).toEqual(archived);
    expect((await db.query(`SELECT archived_at FROM bookings.bookings WHERE id = $1`, [elsewhere.id]))[0].archived_at).toBeNull();
    expect(await db.query(`SELECT count(*)::int AS n FROM platform.event_inbox WHERE event_id = $1`, [eventId])).toEqual([{ n: 1 }]);
  });
});
