import type { INestApplicationContext } from '@nestjs/common';
import { FixedClock } from '@leadflow/shared-kernel';
// The real worker app, booted beside the api on the same test services (the app's entry point runs main()).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createWorker } from '../../worker/src/bootstrap';
import { db } from './support/contacts-fixtures';
import { captureLead, freshPhone, leadsBlueprint } from './support/lead-capture-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * public-api-v1 › Endpoints › Leads rule 7: the SMS bot takes over within 30 seconds when consent is
 * given. The api writes `lead_created` to the outbox with the capture; the real worker (createWorker on
 * the same database and Redis prefix) relays it to the `lead-follow-up` consumer, whose job records the
 * hand-off through the SMS follow-up port (default adapter: `contacts.sms_handoffs`).
 */
describe('lead capture: SMS follow-up hand-off by the worker', () => {
  const clock = new FixedClock(new Date('2026-05-14T13:00:00.000Z'));
  let api: TestApi;
  let worker: INestApplicationContext;
  let account: ProvisionedAccount;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    worker = await createWorker(api.services.config({ OUTBOX_RELAY_INTERVAL_MS: '100' }), clock);
    account = await api.provision(leadsBlueprint());
  }, 60_000);
  afterAll(async () => {
    await worker?.close();
    await api.close();
  });

  const handOffsOf = (contactId: string) =>
    db(api).query(`SELECT event_id, contact_id, capture_id, phone, first_name, status, captured_at, created_at FROM contacts.sms_handoffs WHERE account_id = $1 AND contact_id = $2`, [
      account.account_id,
      contactId,
    ]);

  async function waitForHandOffs(contactId: string, count: number, timeoutMs = 30_000): Promise<Record<string, unknown>[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await handOffsOf(contactId);
      if (rows.length >= count) return rows;
      if (Date.now() > deadline) throw new Error(`no SMS hand-off within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('records the hand-off of a consenting new lead within 30 seconds, once', async () => {
    const phone = freshPhone();
    const started = Date.now();
    const response = await captureLead(api, account.api_keys.capture.key, { first_name: 'Élise', phone: phone.raw, sms_consent: 'oui' });
    expect(response.status).toBe(200);
    const [handOff] = await waitForHandOffs(response.body.contact_id, 1);
    expect(Date.now() - started).toBeLessThan(30_000);
    const [event] = await db(api).query(`SELECT id, relayed_at FROM platform.outbox WHERE account_id = $1 AND type = 'lead_created' AND payload->>'contact_id' = $2`, [
      account.account_id,
      response.body.contact_id,
    ]);
    expect(event.relayed_at).not.toBeNull();
    const [capture] = await db(api).query(`SELECT id FROM contacts.lead_captures WHERE account_id = $1 AND contact_id = $2`, [account.account_id, response.body.contact_id]);
    expect(handOff).toEqual({
      event_id: event.id,
      contact_id: response.body.contact_id,
      capture_id: capture.id,
      phone: phone.e164,
      first_name: 'Élise',
      status: 'pending',
      captured_at: clock.now(),
      created_at: clock.now(),
    });
  });

  it('no follow-up for an idempotent replay or an existing pipeline contact; a recorded capture of an existing contact is handed off again', async () => {
    const phone = freshPhone();
    const first = await captureLead(api, account.api_keys.capture.key, { phone: phone.raw, sms_consent: true, pipeline: { stage_slug: 'gagne' } });
    await waitForHandOffs(first.body.contact_id, 1);
    const replay = await captureLead(api, account.api_keys.capture.key, { phone: phone.raw, sms_consent: true });
    expect(replay.body.status).toBe('idempotent_replay');
    const open = freshPhone();
    const inStage = await captureLead(api, account.api_keys.capture.key, { phone: open.raw, sms_consent: true });
    await waitForHandOffs(inStage.body.contact_id, 1);
    clock.advance(6 * 60_000);
    const existing = await captureLead(api, account.api_keys.capture.key, { phone: open.raw, sms_consent: true });
    expect(existing.body.status).toBe('existing_pipeline_contact');
    const again = await captureLead(api, account.api_keys.capture.key, { phone: phone.raw, sms_consent: true });
    expect(again.body).toMatchObject({ status: 'created', contact_was_new: false });
    await waitForHandOffs(first.body.contact_id, 2);
    // Let the relay run a few more passes: nothing else arrives.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await handOffsOf(first.body.contact_id)).toHaveLength(2);
    expect(await handOffsOf(inStage.body.contact_id)).toHaveLength(1);
    const unrelayed = await db(api).count('platform.outbox', 'account_id = $1 AND relayed_at IS NULL', [account.account_id]);
    expect(unrelayed).toBe(0);
  });
});
