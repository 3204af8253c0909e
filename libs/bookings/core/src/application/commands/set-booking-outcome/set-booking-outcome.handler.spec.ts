import { asAccountId, DomainError, FixedClock } from '@leadflow/shared-kernel';
import { BookingOutcome, SetBookingOutcomeCommand } from '@leadflow/bookings-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import type { BookingState } from '../../ports/bookings.repository.port';
import { InMemoryBookings, TEST_ACTOR } from '../../../testing/in-memory-bookings';
import { SetBookingOutcomeHandler } from './set-booking-outcome.handler';

const ACCOUNT = asAccountId('00000000-0000-4000-8000-000000000001');
const OTHER = asAccountId('00000000-0000-4000-8000-000000000002');
const NOW = new Date('2027-03-01T12:00:00.000Z');

function setup() {
  const clock = new FixedClock(NOW);
  const bookings = new InMemoryBookings();
  const journal = new InMemoryJournal();
  const handler = new SetBookingOutcomeHandler(bookings, journal, new InMemoryUnitOfWork(), clock);
  let n = 0;
  const booking = (extra: Partial<BookingState> = {}): BookingState => {
    n += 1;
    const row: BookingState = {
      id: `00000000-0000-4000-8000-0000000002${String(n).padStart(2, '0')}`,
      accountId: ACCOUNT,
      calendarId: '00000000-0000-4000-8000-0000000000c1',
      contactId: '00000000-0000-4000-8000-000000000101',
      hostId: '00000000-0000-4000-8000-00000000000a',
      meetingLink: null,
      start: new Date('2027-03-02T15:00:00Z'),
      end: new Date('2027-03-02T15:30:00Z'),
      status: 'confirmed',
      timezone: null,
      guestName: null,
      guestEmail: null,
      guestPhone: null,
      notes: null,
      formResponses: {},
      cancelledAt: null,
      cancelledBy: null,
      archivedAt: null,
      createdAt: new Date('2027-02-01T00:00:00Z'),
      updatedAt: new Date('2027-02-01T00:00:00Z'),
      ...extra,
    };
    void bookings.insert(row);
    return row;
  };
  const set = (bookingId: string, outcome: BookingOutcome, accountId = ACCOUNT) => handler.execute(new SetBookingOutcomeCommand(accountId, bookingId, outcome, TEST_ACTOR));
  return { clock, bookings, journal, booking, set };
}

const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
    return null;
  } catch (error) {
    return { code: (error as DomainError).code, details: (error as DomainError).details };
  }
};

describe('SetBookingOutcomeHandler (in-memory ports; issue 13, item 2)', () => {
  it('a confirmed booking whose start is still ahead takes an outcome (staff close it early): status, updated_at, activity entry and outbox event', async () => {
    const { booking, set, bookings, journal } = setup();
    const row = booking();
    const view = await set(row.id, 'completed');
    expect(view).toMatchObject({ id: row.id, status: 'completed', updated_at: NOW.toISOString() });
    expect(bookings.rows[0].status).toBe('completed');
    expect(journal.entries).toEqual([expect.objectContaining({ type: 'booking_outcome_recorded', data: { booking_id: row.id, status: 'completed', previous_status: 'confirmed' } })]);
    expect(journal.events.map((event) => [event.type, event.payload.previous_status])).toEqual([['booking_outcome_recorded', 'confirmed']]);
  });

  it('a confirmed booking whose start has passed takes an outcome', async () => {
    const { booking, set } = setup();
    const row = booking({ start: new Date('2027-02-28T15:00:00Z'), end: new Date('2027-02-28T15:30:00Z') });
    expect((await set(row.id, 'no_show')).status).toBe('no_show');
  });

  it('the same outcome again is 200 with the booking unchanged, and writes nothing', async () => {
    const { booking, set, clock, journal } = setup();
    const row = booking();
    const first = await set(row.id, 'no_show');
    clock.advance(60_000);
    expect(await set(row.id, 'no_show')).toEqual(first);
    expect(journal.entries).toHaveLength(1);
    expect(journal.events).toHaveLength(1);
  });

  it('the other outcome corrects the first: the latest wins, recorded with previous_status', async () => {
    const { booking, set, clock, journal, bookings } = setup();
    const row = booking();
    await set(row.id, 'no_show');
    clock.advance(60_000);
    const corrected = await set(row.id, 'completed');
    expect(corrected).toMatchObject({ status: 'completed', updated_at: new Date(NOW.getTime() + 60_000).toISOString() });
    expect(bookings.rows[0].status).toBe('completed');
    expect(journal.entries.map((entry) => entry.data)).toEqual([
      { booking_id: row.id, status: 'no_show', previous_status: 'confirmed' },
      { booking_id: row.id, status: 'completed', previous_status: 'no_show' },
    ]);
  });

  it('already_cancelled: a cancelled booking takes no outcome, nothing written', async () => {
    const { booking, set, journal, bookings } = setup();
    const row = booking({ status: 'cancelled', cancelledAt: NOW, cancelledBy: 'integration' });
    for (const outcome of ['completed', 'no_show'] as const) {
      expect(await refusal(set(row.id, outcome))).toEqual({ code: 'business_rule_violation', details: { reason: 'already_cancelled' } });
    }
    expect(bookings.rows[0].status).toBe('cancelled');
    expect(journal.entries).toHaveLength(0);
  });

  it('resource_not_found: unknown id, archived booking, another account\'s booking', async () => {
    const { booking, set } = setup();
    const archived = booking({ archivedAt: NOW });
    const theirs = booking({ accountId: OTHER });
    for (const id of ['00000000-0000-4000-8000-0000000002ff', archived.id, theirs.id]) {
      expect(await refusal(set(id, 'completed'))).toEqual({ code: 'resource_not_found', details: { resource: 'booking' } });
    }
    expect(theirs.status).toBe('confirmed');
  });
});
