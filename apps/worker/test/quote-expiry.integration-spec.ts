import { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { EXPIRE_QUOTES_JOB, QUOTE_EXPIRY_QUEUE, QUOTE_EXPIRY_SCHEDULE } from '@leadflow/quotes-adapters';
import { FixedClock, newId } from '@leadflow/shared-kernel';
import { bullConnection } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { createWorker } from '../src/bootstrap';

const ACCOUNT = '5f0c7c1e-3c1f-4a57-9d2b-0d6f2f2b8a11';

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** ARCHITECTURE › Writes, events and the worker: the daily quote expiry, a repeatable BullMQ job of the worker, run with the FixedClock. */
describe('worker: the daily quote expiry', () => {
  let services: TestServices;
  let worker: INestApplicationContext;
  let queue: Queue;
  const clock = new FixedClock(new Date('2026-05-11T04:30:00.000Z')); // 00:30 on May 11 in Montreal

  beforeAll(async () => {
    services = await createTestServices();
    worker = await createWorker(services.config(), clock);
    queue = new Queue(QUOTE_EXPIRY_QUEUE, { connection: bullConnection(services.redisUrl), prefix: `${services.redisPrefix}:bull` });
  });
  afterAll(async () => {
    await queue.close();
    await worker.close();
    await services.dispose();
  });

  let sequence = 0;
  /** A quote row as the api writes it (quotes.quotes), in `status`, valid until `validUntil`. */
  const insert = async (validUntil: string, status: 'draft' | 'sent' | 'signed') => {
    sequence += 1;
    const id = newId();
    await worker.get(DataSource).query(
      `INSERT INTO quotes.quotes (id, account_id, quote_number, status, language, valid_until, timezone, line_items, internal_notes,
         tax_profile, signature_payment_order, subtotal_cents, tps_cents, tvq_cents, total_cents, payment_plan_type, payment_execution_mode,
         created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'fr', $5, 'America/Montreal', '[{"description":"A","quantity":"1","unit_price_cents":1000}]', '',
         'gst_qst', 'signature_first', 1000, 50, 100, 1150, 'full', 'manual', $6, $6)`,
      [id, ACCOUNT, `2026-${String(sequence).padStart(4, '0')}`, status, validUntil, new Date('2026-05-01T12:00:00.000Z')],
    );
    return id;
  };
  const statusOf = async (id: string) => (await worker.get(DataSource).query(`SELECT status FROM quotes.quotes WHERE id = $1`, [id]))[0].status;

  it('registers the daily schedule (00:05 in Montreal)', async () => {
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers).toEqual([expect.objectContaining({ key: EXPIRE_QUOTES_JOB, pattern: QUOTE_EXPIRY_SCHEDULE.pattern, tz: QUOTE_EXPIRY_SCHEDULE.tz })]);
  });

  it('a run moves quotes past valid_until (account-local date) to expired, with quote_expired in the outbox', async () => {
    const due = await insert('2026-05-10', 'sent');
    const today = await insert('2026-05-11', 'draft');
    const signed = await insert('2026-05-01', 'signed');
    await queue.add(EXPIRE_QUOTES_JOB, {});
    await waitFor(async () => (await statusOf(due)) === 'expired', 'the expiry run');
    expect([await statusOf(today), await statusOf(signed)]).toEqual(['draft', 'signed']);
    const events = await worker.get(DataSource).query(`SELECT type, occurred_at FROM platform.outbox WHERE payload->>'quote_id' = $1`, [due]);
    expect(events).toEqual([{ type: 'quote_expired', occurred_at: new Date('2026-05-11T04:30:00.000Z') }]);
  });
});
