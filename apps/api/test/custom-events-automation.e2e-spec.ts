import type { INestApplicationContext } from '@nestjs/common';
import { FixedClock } from '@leadflow/shared-kernel';
// The real worker app, booted beside the api on the same test services.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createWorker } from '../../worker/src/bootstrap';
import { db, expectStatus } from './support/contacts-fixtures';
import { EVENTS_NOW, eventsBlueprint, postEvent } from './support/events-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- test bodies are asserted field by field */

/**
 * Issue 7 › Done when: a signed `POST /v1/events` enrols a published automation (blueprint member
 * `automations`) whose steps tag the contact and send an email; the real worker (outbox relay, the
 * automations engine, the outgoing-email path with the logging transport) runs it, and the result is
 * visible through the APIs: `GET /v1/automations/{id}/history` (completed), the contact's tags
 * (`GET /v1/contacts/{id}?expand=tags`) and `GET /admin/v1/accounts/{id}/emails`.
 */
describe('end to end: a signed custom event runs an automation in the worker', () => {
  const clock = new FixedClock(EVENTS_NOW);
  let api: TestApi;
  let worker: INestApplicationContext;
  let account: ProvisionedAccount;

  async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    worker = await createWorker(api.services.config({ OUTBOX_RELAY_INTERVAL_MS: '50', AUTOMATION_SWEEP_INTERVAL_MS: '200' }), clock);
    account = await api.provision(
      eventsBlueprint({
        automations: [
          {
            name: 'Bienvenue',
            is_active: true,
            is_published: true,
            allow_concurrent_runs: false,
            trigger: { type: 'custom_event', event: 'inscription' },
            steps: [
              { type: 'add_tag', tag: 'bienvenue' },
              { type: 'send_email', subject: 'Bonjour {{contact.first_name}}', body: '<p>{{event.message}}</p><p>{{event.commande}}</p>' },
            ],
          },
        ],
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await worker?.close();
    await api.close();
  });

  it('signed event → execution completed in the history, contact tagged, email sent with {{contact.*}} and {{event.*}} filled', async () => {
    const token = account.api_keys.full.key;
    const automationId = (account.automations as Record<string, string>).Bienvenue;
    const response = await postEvent(
      api,
      account.api_keys.capture.key,
      { event: 'inscription', contact: { email: 'nadia.belanger@exemple.test', first_name: 'Nadia', external_id: 'crm-42' }, payload: { message: 'Merci de votre inscription', commande: { id: 42 } } },
      { sign: true },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ingested', enrolled_executions: 1 });

    const contacts = expectStatus(await api.request({ path: '/v1/contacts', token, query: { search: 'nadia.belanger@exemple.test' } }), 200).body.data;
    expect(contacts).toHaveLength(1);
    const contactId = contacts[0].id;

    const history = await waitFor(
      async () => expectStatus(await api.request({ path: `/v1/automations/${automationId}/history`, token }), 200).body.data,
      (executions: any[]) => executions.length === 1 && ['completed', 'failed'].includes(executions[0].status),
      'the execution to finish',
      20_000,
    );
    expect(history[0]).toMatchObject({ contact_id: contactId, status: 'completed', trigger_type: 'custom_event', retry_count: 0 });

    const contact = expectStatus(await api.request({ path: `/v1/contacts/${contactId}`, token, query: { expand: 'tags' } }), 200).body.data;
    expect(contact.client_contact_tags.map((tag: any) => tag.name)).toEqual(['bienvenue']);

    const emails = await waitFor(
      async () => expectStatus(await api.admin('GET', `/accounts/${account.account_id}/emails`), 200).body.data,
      (rows: any[]) => rows.some((row) => row.subject === 'Bonjour Nadia' && row.status === 'sent'),
      'the automation email to be sent',
    );
    const email = emails.find((row: any) => row.subject === 'Bonjour Nadia');
    expect(email).toMatchObject({ to: 'nadia.belanger@exemple.test', type: 'automation', status: 'sent', is_test: false });
    const [stored] = await db(api).query(`SELECT html FROM messaging.outgoing_emails WHERE account_id = $1 AND id = $2`, [account.account_id, email.id]);
    expect(stored.html).toContain('Merci de votre inscription');
    expect(stored.html).toContain('42');

    const completed = await db(api).count('platform.outbox', `account_id = $1 AND type = 'automation_completed'`, [account.account_id]);
    expect(completed).toBe(1);
  });
});
