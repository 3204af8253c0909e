import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FixedClock, newId, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { OutboxWriter } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { createWorker } from '../src/bootstrap';

const ACCOUNT = '5f0c7c1e-3c1f-4a57-9d2b-0d6f2f2b8a21';
const OTHER_ACCOUNT = '5f0c7c1e-3c1f-4a57-9d2b-0d6f2f2b8a22';

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The worker's bookings consumer of `contact_deleted`: the deleted contacts' bookings are archived
 * (excluded from GET /v1/bookings, 404 by id) and the confirmed ones' host calendar events removed.
 */
describe('worker: bookings of deleted contacts are archived', () => {
  let services: TestServices;
  let worker: INestApplicationContext;
  const clock = new FixedClock(new Date('2027-03-01T12:00:00.000Z'));

  beforeAll(async () => {
    services = await createTestServices();
    worker = await createWorker(services.config(), clock);
  });
  afterAll(async () => {
    await worker.close();
    await services.dispose();
  });

  const sql = (text: string, parameters: unknown[] = []) => worker.get(DataSource).query(text, parameters);

  async function insertBooking(accountId: string, calendarId: string, contactId: string, status: 'confirmed' | 'cancelled'): Promise<string> {
    const id = newId();
    await sql(
      `INSERT INTO bookings.bookings (id, account_id, calendar_id, contact_id, host_id, start_at, end_at, status, cancelled_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, '2027-03-02T15:00:00Z', '2027-03-02T16:00:00Z', $6, $7, now(), now())`,
      [id, accountId, calendarId, contactId, newId(), status, status === 'cancelled' ? new Date() : null],
    );
    await sql(
      `INSERT INTO bookings.host_calendar_events (booking_id, account_id, calendar_id, host_id, title, start_at, end_at) VALUES ($1, $2, $3, $4, 'RDV', now(), now() + interval '1 hour')`,
      [id, accountId, calendarId, newId()],
    );
    return id;
  }

  async function insertCalendar(accountId: string): Promise<string> {
    const id = newId();
    await sql(`INSERT INTO bookings.calendars (id, account_id, name, duration_minutes, slot_interval_minutes, min_notice_minutes, max_days_ahead, capacity, timezone)
               VALUES ($1, $2, 'C', 60, 60, 0, 60, 1, 'America/Montreal')`, [id, accountId]);
    return id;
  }

  it('a contact_deleted event archives the bookings of the listed contacts of that account only, and removes the confirmed ones\' calendar events', async () => {
    const calendar = await insertCalendar(ACCOUNT);
    const otherCalendar = await insertCalendar(OTHER_ACCOUNT);
    const deleted = newId();
    const absorbed = newId();
    const kept = newId();
    const confirmed = await insertBooking(ACCOUNT, calendar, deleted, 'confirmed');
    const cancelled = await insertBooking(ACCOUNT, calendar, absorbed, 'cancelled');
    const untouched = await insertBooking(ACCOUNT, calendar, kept, 'confirmed');
    const sameContactOtherAccount = await insertBooking(OTHER_ACCOUNT, otherCalendar, deleted, 'confirmed');

    await worker.get(OutboxWriter).append([
      { id: newId(), type: 'contact_deleted', accountId: ACCOUNT, occurredAt: clock.now(), actor: SYSTEM_ACTOR, payload: { contact_ids: [deleted, absorbed] } },
    ]);
    await waitFor(async () => (await sql(`SELECT archived_at FROM bookings.bookings WHERE id = $1`, [confirmed]))[0].archived_at !== null, 'the archive');

    const rows = await sql(`SELECT id, archived_at IS NOT NULL AS archived FROM bookings.bookings`);
    const archived = Object.fromEntries(rows.map((row: { id: string; archived: boolean }) => [row.id, row.archived]));
    expect(archived).toEqual({ [confirmed]: true, [cancelled]: true, [untouched]: false, [sameContactOtherAccount]: false });
    const events = await sql(`SELECT booking_id, removed_at IS NOT NULL AS removed FROM bookings.host_calendar_events`);
    const removed = Object.fromEntries(events.map((row: { booking_id: string; removed: boolean }) => [row.booking_id, row.removed]));
    expect(removed).toEqual({ [confirmed]: true, [cancelled]: false, [untouched]: false, [sameContactOtherAccount]: false });
  });
});
