import type { INestApplicationContext } from '@nestjs/common';
import { FixedClock } from '@leadflow/shared-kernel';
// The real worker app, booted beside the api on the same test services (the app's entry point runs main()).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createWorker } from '../../worker/src/bootstrap';
import { db, expectStatus } from './support/contacts-fixtures';
import { postEvent } from './support/events-fixtures';
import { captureLead, freshPhone, leadsBlueprint } from './support/lead-capture-fixtures';
import { createQuote, pagePath, QUOTE_DEFAULTS, quoteEmails, SENDABLE, sendQuote } from './support/quotes-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * The lead score (issue 13 item 6; README › Decisions › Lead score): set when lead capture creates the
 * contact, then raised by the worker when the lead opens a quote. The api writes `quote_viewed` to the
 * outbox with the view; the real worker (createWorker on the same database and Redis prefix) relays it
 * to the `lead-score` consumer, which recomputes the contact's score. The contact view and the deal
 * view show it.
 */
describe('lead score: a quote view raises it, through the worker', () => {
  const clock = new FixedClock(new Date('2026-05-14T13:00:00.000Z'));
  let api: TestApi;
  let worker: INestApplicationContext;
  let account: ProvisionedAccount;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    worker = await createWorker(api.services.config({ OUTBOX_RELAY_INTERVAL_MS: '100' }), clock);
    account = await api.provision(
      leadsBlueprint({ quote_defaults: QUOTE_DEFAULTS, senders: [{ email: 'bonjour@tremblay.test', name: 'Rénovations Tremblay', is_default: true }] }),
    );
    token = account.api_keys.full.key;
  }, 60_000);
  afterAll(async () => {
    await worker?.close();
    await api.close();
  });

  const contactView = async (contactId: string) => expectStatus(await api.request({ path: `/v1/contacts/${contactId}`, token }), 200).body.data;
  const dealView = async (contactId: string) => {
    const deals = expectStatus(await api.request({ path: '/v1/pipeline/deals', query: { limit: '100' }, token }), 200).body.data;
    return deals.find((deal: any) => deal.id === contactId);
  };

  async function waitForScore(contactId: string, expected: number, timeoutMs = 30_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const contact = await contactView(contactId);
      if (contact.score === expected) return contact;
      if (Date.now() > deadline) throw new Error(`score of ${contactId} is ${contact.score}, not ${expected}, after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** A captured lead placed in the funnel's default stage: a deal, with its initial score. */
  let leads = 0;
  async function capturedDeal(): Promise<{ contactId: string; email: string }> {
    const email = `lead-${++leads}@example.com`;
    const captured = await captureLead(api, account.api_keys.capture.key, {
      first_name: 'Élise',
      email,
      phone: freshPhone().raw,
      sms_consent: 'oui',
      utm: { source: 'facebook', medium: 'paid_social' },
    });
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ status: 'created', contact_was_new: true, pipeline: expect.objectContaining({ stage_id: expect.any(String) }) });
    return { contactId: captured.body.contact_id, email };
  }

  it('lead capture sets the initial score; viewing a sent quote raises it by 8 on the contact and on the deal, within seconds', async () => {
    const { contactId, email } = await capturedDeal();
    // profile: email 5, phone 5, name 4 · SMS consent 6 · funnel 4, utm campaign 3 · recency 15
    const initial = await contactView(contactId);
    expect(initial.score).toBe(42);
    expect((await dealView(contactId)).score).toBe(42);

    const quote = await createQuote(api, token, { ...SENDABLE, contact_id: contactId, prospect_email: email });
    expectStatus(await sendQuote(api, token, quote.id), 200);
    const page = (await quoteEmails(api, account)).find((row) => row.to === email);
    clock.advance(60_000);
    expect((await api.request({ path: pagePath(page!.html) })).status).toBe(200);

    // quote viewed: engagement 8
    const raised = await waitForScore(contactId, 50);
    expect((await dealView(contactId)).score).toBe(50);
    // the score is derived: its change is not an edit of the contact
    expect(raised.updated_at).toBe(initial.updated_at);
    const [row] = await db(api).query(`SELECT score, score_review_at FROM contacts.contacts WHERE id = $1`, [contactId]);
    expect(row).toEqual({ score: 50, score_review_at: new Date(clock.now().getTime() + 7 * 24 * 60 * 60 * 1000 + 1) });
    const [viewed] = await db(api).query(`SELECT id FROM platform.outbox WHERE account_id = $1 AND type = 'quote_viewed' AND payload->>'contact_id' = $2`, [
      account.account_id,
      contactId,
    ]);
    const inbox = await db(api).query(`SELECT outcome FROM platform.event_inbox WHERE consumer = 'lead-score' AND event_id = $1`, [viewed.id]);
    expect(inbox).toEqual([{ outcome: 'handled' }]);

    // Opening the page again changes nothing: the quote is viewed already, no event, same score.
    expect((await api.request({ path: pagePath(page!.html) })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await contactView(contactId)).score).toBe(50);
  });

  it('the lead-score consumer never receives lead capture events (lead_created, contact_created, stage_changed): only engagement and profile events', async () => {
    const { contactId } = await capturedDeal();
    // wait until the relay has passed the capture's events (the SMS follow-up consumer took lead_created)
    const deadline = Date.now() + 30_000;
    while ((await db(api).count('platform.outbox', `account_id = $1 AND relayed_at IS NULL`, [account.account_id])) > 0) {
      if (Date.now() > deadline) throw new Error('outbox not relayed');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const types = await db(api).query(
      `SELECT DISTINCT o.type FROM platform.event_inbox i JOIN platform.outbox o ON o.id = i.event_id WHERE i.consumer = 'lead-score' AND o.account_id = $1 ORDER BY o.type`,
      [account.account_id],
    );
    expect(types.map((entry: any) => entry.type)).toEqual(['quote_viewed']);
    expect((await contactView(contactId)).score).toBe(42);
  });

  it('a custom event on the lead raises it by 2 (custom_event_received, written by the events context with the event)', async () => {
    const { contactId, email } = await capturedDeal();
    expect((await contactView(contactId)).score).toBe(42);
    const response = await postEvent(api, token, { event: 'simulation_terminee', contact: { email } });
    expect(response.status).toBe(200);
    await waitForScore(contactId, 44);
    expect((await dealView(contactId)).score).toBe(44);
  });
});
