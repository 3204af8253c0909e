import { asAccountId, DomainError, FixedClock } from '@leadflow/shared-kernel';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import type { Calendar } from '../../../domain/calendar';
import {
  FakeBookingDirectory,
  FakeBookingMailer,
  InMemoryBookings,
  InMemoryCalendars,
  InMemoryExternalCalendar,
  TEST_ACTOR,
} from '../../../testing/in-memory-bookings';
import { CreateBookingCommand } from './create-booking.command';
import { CreateBookingHandler } from './create-booking.handler';

const ACCOUNT = asAccountId('00000000-0000-4000-8000-000000000001');
const CAL = '00000000-0000-4000-8000-0000000000c1';
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

function setup(overrides: Partial<Calendar> = {}) {
  const clock = new FixedClock(new Date('2027-03-01T12:00:00Z'));
  const calendars = new InMemoryCalendars();
  const bookings = new InMemoryBookings();
  const external = new InMemoryExternalCalendar();
  const directory = new FakeBookingDirectory();
  const mailer = new FakeBookingMailer();
  const journal = new InMemoryJournal();
  directory.members.push({ id: A, email: 'a@x.test', name: 'A', isActive: true }, { id: B, email: 'b@x.test', name: 'B', isActive: true });
  void calendars.insert({
    id: CAL,
    accountId: ACCOUNT,
    name: 'Rotation',
    durationMinutes: 30,
    slotIntervalMinutes: 30,
    minNoticeMinutes: 0,
    maxDaysAhead: 60,
    dailyMax: null,
    capacity: 1,
    timezone: 'America/Montreal',
    availability: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '17:00' })),
    questions: [],
    requiresQualifiedLead: false,
    isActive: true,
    meetingLink: null,
    hostIds: [A, B],
    ...overrides,
  });
  let n = 0;
  const contact = (extra: Record<string, unknown> = {}) => {
    n += 1;
    const id = `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;
    directory.contacts.set(id, { id, first_name: 'C', last_name: String(n), email: `c${n}@x.test`, phone: null, company: null, archived: false, sales_rep_id: null, stage_id: null, disqualified: false, ...extra });
    return id;
  };
  const handler = new CreateBookingHandler(calendars, bookings, external, directory, mailer, journal, new InMemoryUnitOfWork(), clock);
  const book = (input: Record<string, unknown>) => handler.execute(new CreateBookingCommand(ACCOUNT, { eventTypeId: CAL, startDatetime: '2027-03-02T15:00:00Z', ...input }, TEST_ACTOR));
  return { clock, bookings, external, directory, mailer, journal, contact, book };
}

const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
    return null;
  } catch (error) {
    return { code: (error as DomainError).code, details: (error as DomainError).details };
  }
};

describe('CreateBookingHandler (in-memory ports)', () => {
  it('confirms, adds the host event, notifies the host and journals booking_created', async () => {
    const { book, contact, external, mailer, journal } = setup();
    const booking = await book({ contactId: contact() });
    expect(booking).toMatchObject({ status: 'confirmed', start_datetime: '2027-03-02T15:00:00.000Z', end_datetime: '2027-03-02T15:30:00.000Z' });
    expect(external.events.get(booking.id)).toMatchObject({ hostId: booking.host_id, removed: false });
    expect(mailer.sent).toEqual([expect.objectContaining({ type: 'booking_notification', priority: 1 })]);
    expect(journal.events.map((event) => event.type)).toEqual(['booking_created']);
  });

  it('rotation: fewest upcoming, then least recently booked, then id', async () => {
    const { book, contact, clock } = setup();
    const hosts: string[] = [];
    for (const start of ['2027-03-02T15:00:00Z', '2027-03-02T16:00:00Z', '2027-03-02T17:00:00Z']) {
      clock.advance(1000);
      hosts.push((await book({ contactId: contact(), startDatetime: start })).host_id);
    }
    expect(hosts).toEqual([A, B, A]);
  });

  it('the sales rep first when available; a requested host is never replaced', async () => {
    const { book, contact, external } = setup();
    expect((await book({ contactId: contact({ sales_rep_id: B }) })).host_id).toBe(B);
    external.busy.push({ hostId: B, cause: 'google_busy', start: new Date('2027-03-02T16:00:00Z'), end: new Date('2027-03-02T17:00:00Z') });
    expect((await book({ contactId: contact({ sales_rep_id: B }), startDatetime: '2027-03-02T16:00:00Z' })).host_id).toBe(A);
    expect(await refusal(book({ contactId: contact(), startDatetime: '2027-03-02T16:30:00Z', hostId: B }))).toEqual({
      code: 'business_rule_violation',
      details: { reason: 'host_unavailable', causes: ['google_busy'] },
    });
  });

  it('group sessions fill one host\'s session before opening another', async () => {
    const { book, contact } = setup({ capacity: 2 });
    const hosts = [];
    for (let i = 0; i < 4; i += 1) hosts.push((await book({ contactId: contact() })).host_id);
    expect(hosts).toEqual([A, A, B, B]);
    expect(await refusal(book({ contactId: contact() }))).toEqual({ code: 'business_rule_violation', details: { reason: 'slot_unavailable' } });
  });

  describe('busy host (issue 13, item 1)', () => {
    it('host_unavailable other_booking: the requested host already has a booking at this very slot of a one-seat calendar, nothing written', async () => {
      const { book, contact, bookings, journal } = setup();
      await book({ contactId: contact(), hostId: A });
      const before = { rows: bookings.rows.length, events: journal.events.length };
      expect(await refusal(book({ contactId: contact(), hostId: A }))).toEqual({ code: 'business_rule_violation', details: { reason: 'host_unavailable', causes: ['other_booking'] } });
      expect({ rows: bookings.rows.length, events: journal.events.length }).toEqual(before);
    });

    it('host_unavailable other_booking: the requested host has a booking overlapping the slot (another start, or another calendar)', async () => {
      const { book, contact } = setup({ durationMinutes: 60 });
      await book({ contactId: contact(), hostId: A, startDatetime: '2027-03-02T15:00:00Z' });
      expect(await refusal(book({ contactId: contact(), hostId: A, startDatetime: '2027-03-02T15:30:00Z' }))).toEqual({
        code: 'business_rule_violation',
        details: { reason: 'host_unavailable', causes: ['other_booking'] },
      });
      expect((await book({ contactId: contact(), hostId: A, startDatetime: '2027-03-02T16:00:00Z' })).host_id).toBe(A);
    });

    it('other_booking comes with daily_max when the busy slot also fills the day', async () => {
      const { book, contact } = setup({ dailyMax: 1 });
      await book({ contactId: contact(), hostId: A });
      expect(await refusal(book({ contactId: contact(), hostId: A }))).toEqual({
        code: 'business_rule_violation',
        details: { reason: 'host_unavailable', causes: ['other_booking', 'daily_max'] },
      });
    });

    it('slot_unavailable: the requested host is free but their group session at this start is full (no causes)', async () => {
      const { book, contact } = setup({ capacity: 2 });
      await book({ contactId: contact(), hostId: A });
      await book({ contactId: contact(), hostId: A });
      expect(await refusal(book({ contactId: contact(), hostId: A }))).toEqual({ code: 'business_rule_violation', details: { reason: 'slot_unavailable' } });
      expect((await book({ contactId: contact(), hostId: B })).host_id).toBe(B);
    });

    it('a group session is joined, not counted as the host\'s other booking', async () => {
      const { book, contact } = setup({ capacity: 3 });
      await book({ contactId: contact(), hostId: A });
      expect((await book({ contactId: contact(), hostId: A })).host_id).toBe(A);
    });

    it('without host_id, every host busy: slot_unavailable with the union of the hosts\' causes (no host is blamed)', async () => {
      const { book, contact, external } = setup();
      await book({ contactId: contact(), hostId: A });
      external.busy.push({ hostId: B, cause: 'google_busy', start: new Date('2027-03-02T15:00:00Z'), end: new Date('2027-03-02T16:00:00Z') });
      expect(await refusal(book({ contactId: contact() }))).toEqual({
        code: 'business_rule_violation',
        details: { reason: 'slot_unavailable', causes: ['other_booking', 'google_busy'] },
      });
    });

    it('without host_id, one host busy: the other host is assigned', async () => {
      const { book, contact } = setup();
      await book({ contactId: contact(), hostId: A });
      expect((await book({ contactId: contact() })).host_id).toBe(B);
    });
  });

  it('lead_not_qualified unless the contact is in an open stage and not disqualified', async () => {
    const { book, contact, directory } = setup({ requiresQualifiedLead: true });
    directory.stages.set('open', true).set('won', false);
    for (const extra of [{}, { stage_id: 'won' }, { stage_id: 'open', disqualified: true }]) {
      expect(await refusal(book({ contactId: contact(extra) }))).toEqual({ code: 'business_rule_violation', details: { reason: 'lead_not_qualified' } });
    }
    expect((await book({ contactId: contact({ stage_id: 'open' }) })).status).toBe('confirmed');
  });
});
