import { FixedClock } from '@leadflow/shared-kernel';
import { createContact, db, expectStatus } from './support/contacts-fixtures';
import { EVENTS_NOW, eventsBlueprint, postEvent } from './support/events-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * public-api-v1 › Endpoints › Events › POST /v1/events: enrolment of the automations whose custom-event
 * trigger matches the name (case-sensitive), `enrolled_executions`, the 5 minute per-contact
 * per-automation deduplication, no enrolment for an archived contact, and the all-or-nothing write of
 * the event with its executions (automations provisioned through the blueprint member `automations`).
 */
describe('POST /v1/events: automation enrolment', () => {
  const clock = new FixedClock(EVENTS_NOW);
  let api: TestApi;
  let account: ProvisionedAccount;
  let key: string;

  const automations = [
    { name: 'Bienvenue', is_active: true, is_published: true, allow_concurrent_runs: true, trigger: { type: 'custom_event', event: 'inscription' }, steps: [{ type: 'add_tag', tag: 'bienvenue' }] },
    { name: 'Suivi', is_active: true, is_published: true, allow_concurrent_runs: true, trigger: { type: 'custom_event', event: 'inscription' }, steps: [{ type: 'add_tag', tag: 'suivi' }] },
    { name: 'Autre nom', is_active: true, is_published: true, trigger: { type: 'custom_event', event: 'achat' }, steps: [{ type: 'add_tag', tag: 'achat' }] },
    { name: 'Inactive', is_active: false, is_published: true, trigger: { type: 'custom_event', event: 'inscription' }, steps: [{ type: 'add_tag', tag: 'x' }] },
    { name: 'Brouillon', is_active: true, is_published: false, trigger: { type: 'custom_event', event: 'inscription' }, steps: [{ type: 'add_tag', tag: 'x' }] },
    { name: 'Manuelle', is_active: true, is_published: true, trigger: { type: 'manual' }, steps: [{ type: 'add_tag', tag: 'x' }] },
  ];
  const ids = () => account.automations as Record<string, string>;
  const executions = (contactId: string) =>
    db(api).query(`SELECT automation_id, status, trigger_type FROM automations.executions WHERE account_id = $1 AND contact_id = $2 ORDER BY created_at, id`, [
      account.account_id,
      contactId,
    ]);
  const contactByEmail = async (email: string) => (await db(api).query(`SELECT id FROM contacts.contacts WHERE account_id = $1 AND email = $2`, [account.account_id, email]))[0]?.id;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision(eventsBlueprint({ automations }));
    key = account.api_keys.capture.key;
  });
  afterAll(() => api.close());
  afterEach(() => clock.set(EVENTS_NOW));

  it('enrols every active, published automation whose custom-event trigger matches the name: enrolled_executions counts them, visible as pending custom_event executions in the history', async () => {
    const response = await postEvent(api, key, { event: 'inscription', contact: { email: 'enrole@exemple.test' }, payload: { message: 'Bienvenue' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ingested', enrolled_executions: 2 });
    const contactId = await contactByEmail('enrole@exemple.test');
    const rows = await executions(contactId);
    expect(rows.map((row) => row.automation_id).sort()).toEqual([ids().Bienvenue, ids().Suivi].sort());
    expect(rows.every((row) => row.trigger_type === 'custom_event')).toBe(true);
    const history = expectStatus(await api.request({ path: `/v1/automations/${ids().Bienvenue}/history`, token: account.api_keys.full.key }), 200);
    expect(history.body.data).toEqual([expect.objectContaining({ contact_id: contactId, status: 'pending', trigger_type: 'custom_event', retry_count: 0 })]);
    const [event] = await db(api).query(`SELECT enrolled_executions FROM events.custom_events WHERE account_id = $1 AND contact_id = $2`, [account.account_id, contactId]);
    expect(event.enrolled_executions).toBe(2);
  });

  it('the name is case-sensitive: another casing or another name enrols nothing', async () => {
    for (const name of ['Inscription', 'INSCRIPTION', 'inscription ', 'inconnu']) {
      const response = expectStatus(await postEvent(api, key, { event: name, contact: { email: 'casse.auto@exemple.test' } }), 200);
      expect(response.body.enrolled_executions).toBe(0);
    }
    expect(await executions(await contactByEmail('casse.auto@exemple.test'))).toEqual([]);
  });

  it('5 minute per-contact, per-automation deduplication: a repeat within 5 minutes enrols nothing, after 5 minutes enrols again; another contact is not deduplicated', async () => {
    const body = { event: 'inscription', contact: { email: 'dedup@exemple.test' } };
    expect(expectStatus(await postEvent(api, key, body), 200).body.enrolled_executions).toBe(2);
    clock.advance(4 * 60_000);
    expect(expectStatus(await postEvent(api, key, body), 200).body.enrolled_executions).toBe(0);
    expect(expectStatus(await postEvent(api, key, { event: 'inscription', contact: { email: 'dedup.autre@exemple.test' } }), 200).body.enrolled_executions).toBe(2);
    clock.advance(60_000 + 1000);
    expect(expectStatus(await postEvent(api, key, body), 200).body.enrolled_executions).toBe(2);
    expect(await executions(await contactByEmail('dedup@exemple.test'))).toHaveLength(4);
    // Every event is recorded, deduplicated or not.
    expect(await db(api).count('events.custom_events', 'account_id = $1 AND contact_id = $2', [account.account_id, await contactByEmail('dedup@exemple.test')])).toBe(3);
  });

  it('an archived contact is not enrolled (contact_archived true, no execution)', async () => {
    const contact = await createContact(api, account.api_keys.writer.key, { email: 'archive.auto@exemple.test' });
    expectStatus(await api.admin('POST', `/accounts/${account.account_id}/contacts/${contact.id}/archive`), 200);
    const response = expectStatus(await postEvent(api, key, { event: 'inscription', contact: { email: 'archive.auto@exemple.test' } }), 200);
    expect(response.body).toEqual({ status: 'ingested', enrolled_executions: 0, contact_archived: true });
    expect(await executions(contact.id)).toEqual([]);
  });

  it('an Idempotency-Key replay enrols nothing more', async () => {
    const body = { event: 'achat', contact: { email: 'idem.auto@exemple.test' } };
    const first = expectStatus(await postEvent(api, key, body, { headers: { 'idempotency-key': 'achat-1' } }), 200);
    expect(first.body.enrolled_executions).toBe(1);
    clock.advance(10 * 60_000);
    const replay = expectStatus(await postEvent(api, key, body, { headers: { 'idempotency-key': 'achat-1' } }), 200);
    expect(replay.body).toEqual(first.body);
    expect(await executions(await contactByEmail('idem.auto@exemple.test'))).toHaveLength(1);
  });

  it('writes are all-or-nothing: a refused event (404 contact_not_found) leaves no execution and no outbox row', async () => {
    const before = { executions: await db(api).count('automations.executions'), outbox: await db(api).count('platform.outbox') };
    const response = await postEvent(api, key, { event: 'inscription', contact: { email: 'jamais@exemple.test', create_if_missing: false } });
    expect(response.status).toBe(404);
    expect({ executions: await db(api).count('automations.executions'), outbox: await db(api).count('platform.outbox') }).toEqual(before);
  });
});
