import { FixedClock } from '@leadflow/shared-kernel';
import { createContact, db, expectStatus } from './support/contacts-fixtures';
import { EVENTS_NOW, eventsBlueprint, postEvent } from './support/events-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * public-api-v1 › Custom event input and Endpoints › Events › POST /v1/events: contact resolution,
 * create_if_missing, archived contacts, custom fields, payload caps, recording, Idempotency-Key, no
 * consent, tenant isolation and bad input, on real PostgreSQL and Redis. (Enrolment of automations:
 * custom-events-enrolment.e2e-spec.ts; signature: custom-events-signature; limits: custom-events-limits.)
 */
describe('POST /v1/events', () => {
  const clock = new FixedClock(EVENTS_NOW);
  let api: TestApi;
  let account: ProvisionedAccount;
  let other: ProvisionedAccount;
  let key: string;
  let writer: string;

  const contactsCount = () => db(api).count('contacts.contacts', 'account_id = $1', [account.account_id]);
  const eventsOfContact = (contactId: string) =>
    db(api).query(
      `SELECT id, name, payload, payload_truncated, source_label, contact_archived, contact_created, enrolled_executions FROM events.custom_events
        WHERE account_id = $1 AND contact_id = $2 ORDER BY created_at, id`,
      [account.account_id, contactId],
    );
  const contactRow = async (contactId: string) => (await db(api).query(`SELECT * FROM contacts.contacts WHERE account_id = $1 AND id = $2`, [account.account_id, contactId]))[0];
  // The clock is fixed: every event has the same created_at, so the latest is told by the tick advanced before each request.
  const lastEvent = async () =>
    (await db(api).query(`SELECT contact_id, name, payload, payload_truncated, source_label FROM events.custom_events WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`, [account.account_id]))[0];
  const counts = async () => ({
    contacts: await db(api).count('contacts.contacts'),
    events: await db(api).count('events.custom_events'),
    activity: await db(api).count('platform.activity_log'),
    outbox: await db(api).count('platform.outbox'),
    externalIds: await db(api).count('contacts.contact_external_ids'),
  });
  const ingest = async (body: Record<string, unknown>, token = key) => {
    clock.advance(1);
    return expectStatus(await postEvent(api, token, body), 200).body;
  };

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision(eventsBlueprint());
    other = await api.provision(eventsBlueprint({ name: 'Autre compte' }));
    key = account.api_keys.capture.key;
    writer = account.api_keys.writer.key;
  });
  afterAll(() => api.close());

  it('answers 200 { status: ingested, enrolled_executions } at the top level and records the event on the contact with a custom_event activity entry', async () => {
    clock.advance(1);
    const response = await postEvent(api, key, { event: 'inscription', contact: { email: 'premier@exemple.test' }, payload: { message: 'Bienvenue' }, source_label: 'Site web' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ingested', enrolled_executions: 0 });
    const event = await lastEvent();
    expect(event).toMatchObject({ name: 'inscription', payload: { message: 'Bienvenue' }, payload_truncated: false, source_label: 'Site web' });
    const activity = await db(api).query(`SELECT type, data, actor FROM platform.activity_log WHERE account_id = $1 AND contact_id = $2 AND type = 'custom_event'`, [
      account.account_id,
      event.contact_id,
    ]);
    expect(activity).toHaveLength(1);
    expect(activity[0].data).toMatchObject({ event: 'inscription', source_label: 'Site web', contact_archived: false, enrolled_executions: 0 });
    expect(activity[0].actor).toMatchObject({ type: 'api_key', id: account.api_keys.capture.id, via: 'api_key' });
  });

  describe('contact resolution', () => {
    it('create_if_missing default: no match creates a minimal contact (source api, main System) with a contact_created activity and outbox event', async () => {
      const before = await contactsCount();
      await ingest({ event: 'visite', contact: { email: 'Nouveau.Venu@Exemple.test', phone: '(514) 555-0101', first_name: 'Nouveau', external_id: 'crm-1' } });
      expect(await contactsCount()).toBe(before + 1);
      const [contact] = await db(api).query(`SELECT id, email, phone, first_name, source, system_id FROM contacts.contacts WHERE account_id = $1 AND email = 'nouveau.venu@exemple.test'`, [
        account.account_id,
      ]);
      expect(contact).toMatchObject({ email: 'nouveau.venu@exemple.test', phone: '+15145550101', first_name: 'Nouveau', source: 'api', system_id: account.systems.Main ?? expect.any(String) });
      expect(await eventsOfContact(contact.id)).toEqual([expect.objectContaining({ name: 'visite', contact_created: true })]);
      expect(await db(api).count('platform.outbox', `account_id = $1 AND type = 'contact_created' AND payload->>'contact_id' = $2`, [account.account_id, contact.id])).toBe(1);
      expect(await db(api).count('contacts.contact_external_ids', 'account_id = $1 AND contact_id = $2', [account.account_id, contact.id])).toBe(1);
    });

    it('resolution order: external_id first (even when the phone and email belong to other contacts)', async () => {
      const byExternal = (await db(api).query(`SELECT contact_id FROM contacts.contact_external_ids WHERE account_id = $1 AND external_id = 'crm-1'`, [account.account_id]))[0].contact_id;
      const phoneOwner = await createContact(api, writer, { phone: '514 555 0102' });
      const emailOwner = await createContact(api, writer, { email: 'autre@exemple.test' });
      await ingest({ event: 'resolution', contact: { external_id: 'crm-1', phone: '514 555 0102', email: 'autre@exemple.test' } });
      expect(await eventsOfContact(byExternal)).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'resolution' })]));
      expect(await eventsOfContact(phoneOwner.id)).toEqual([]);
      expect(await eventsOfContact(emailOwner.id)).toEqual([]);
    });

    it('resolution order: phone (E.164 normalised) before email', async () => {
      const phoneOwner = await createContact(api, writer, { phone: '+1 514 555 0103' });
      const emailOwner = await createContact(api, writer, { email: 'email.seul@exemple.test' });
      const before = await contactsCount();
      await ingest({ event: 'ordre', contact: { phone: '514.555.0103', email: 'email.seul@exemple.test' } });
      expect(await eventsOfContact(phoneOwner.id)).toHaveLength(1);
      expect(await eventsOfContact(emailOwner.id)).toHaveLength(0);
      expect(await contactsCount()).toBe(before);
    });

    it('email is matched case-insensitively: an uppercase variant never creates a second contact', async () => {
      const contact = await createContact(api, writer, { email: 'casse@exemple.test' });
      const before = await contactsCount();
      await ingest({ event: 'casse', contact: { email: 'CASSE@Exemple.TEST' } });
      expect(await contactsCount()).toBe(before);
      expect(await eventsOfContact(contact.id)).toHaveLength(1);
    });

    it('external_id is scoped by external_source: the same id in another source is another person', async () => {
      await ingest({ event: 'source', contact: { external_id: 'shop-7', external_source: 'shopify', email: 'shop7@exemple.test' } });
      const before = await contactsCount();
      await ingest({ event: 'source', contact: { external_id: 'shop-7', external_source: 'stripe', email: 'stripe7@exemple.test' } });
      expect(await contactsCount()).toBe(before + 1);
      await ingest({ event: 'source', contact: { external_id: 'shop-7', external_source: 'shopify' } });
      expect(await contactsCount()).toBe(before + 1);
    });

    it('a known contact matched by phone or email gets the external_id linked, and is found by it next time', async () => {
      const contact = await createContact(api, writer, { email: 'lier@exemple.test' });
      await ingest({ event: 'lien', contact: { email: 'lier@exemple.test', external_id: 'crm-lier' } });
      await ingest({ event: 'lien', contact: { external_id: 'crm-lier' } });
      expect(await eventsOfContact(contact.id)).toHaveLength(2);
    });

    it('a deleted contact\'s external_id no longer matches: the next event creates a new contact holding it', async () => {
      await ingest({ event: 'efface', contact: { external_id: 'crm-efface', email: 'efface@exemple.test' } });
      const [gone] = await db(api).query(`SELECT id FROM contacts.contacts WHERE account_id = $1 AND email = 'efface@exemple.test'`, [account.account_id]);
      expectStatus(await api.request({ method: 'DELETE', path: `/v1/contacts/${gone.id}`, token: account.api_keys.full.key }), 200);
      expect(await db(api).count('contacts.contact_external_ids', 'account_id = $1 AND contact_id = $2', [account.account_id, gone.id])).toBe(0);
      await ingest({ event: 'efface', contact: { external_id: 'crm-efface', email: 'efface.nouveau@exemple.test' } });
      const [fresh] = await db(api).query(`SELECT id FROM contacts.contacts WHERE account_id = $1 AND email = 'efface.nouveau@exemple.test'`, [account.account_id]);
      expect(await db(api).count('contacts.contact_external_ids', `account_id = $1 AND external_id = 'crm-efface' AND contact_id = $2`, [account.account_id, fresh.id])).toBe(1);
    });

    it('a merged contact resolves to its survivor', async () => {
      const absorbed = await createContact(api, writer, { email: 'absorbe@exemple.test' });
      const survivor = await createContact(api, writer, { email: 'survivant@exemple.test' });
      expectStatus(await api.admin('POST', `/accounts/${account.account_id}/contacts/${absorbed.id}/merge`, { into_contact_id: survivor.id }), 200);
      await ingest({ event: 'fusion', contact: { email: 'absorbe@exemple.test' } });
      expect(await eventsOfContact(survivor.id)).toHaveLength(1);
      expect(await eventsOfContact(absorbed.id)).toHaveLength(0);
    });

    it('create_if_missing false and no match → 404 contact_not_found, nothing recorded', async () => {
      const before = await counts();
      const response = await postEvent(api, key, { event: 'absent', contact: { email: 'personne@exemple.test', create_if_missing: false } });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'contact_not_found', type: 'not_found_error' });
      expect(await counts()).toEqual(before);
    });

    it('create_if_missing false with a match records the event', async () => {
      const contact = await createContact(api, writer, { email: 'existe@exemple.test' });
      await ingest({ event: 'present', contact: { email: 'existe@exemple.test', create_if_missing: false } });
      expect(await eventsOfContact(contact.id)).toHaveLength(1);
    });

    it('only an archived contact matches → event recorded on it, contact untouched, nothing enrolled, contact_archived: true', async () => {
      const contact = await createContact(api, writer, { email: 'archive@exemple.test', custom_fields: { budget: '10 000 $' } });
      expectStatus(await api.admin('POST', `/accounts/${account.account_id}/contacts/${contact.id}/archive`), 200);
      const before = await contactRow(contact.id);
      const response = await postEvent(api, key, { event: 'archive', contact: { email: 'archive@exemple.test', first_name: 'Autre' }, custom_fields: { budget: '99 $' } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'ingested', enrolled_executions: 0, contact_archived: true });
      expect(await contactRow(contact.id)).toEqual(before);
      expect(await eventsOfContact(contact.id)).toEqual([expect.objectContaining({ name: 'archive', contact_archived: true, enrolled_executions: 0 })]);
      expect(await db(api).count('platform.outbox', `account_id = $1 AND type = 'lead_updated' AND payload->>'contact_id' = $2`, [account.account_id, contact.id])).toBe(0);
    });

    it('an archived match by external_id gives way to a live contact matched by phone or email', async () => {
      const archived = await createContact(api, writer, { email: 'vieux@exemple.test' });
      await ingest({ event: 'lien', contact: { email: 'vieux@exemple.test', external_id: 'crm-vieux' } });
      expectStatus(await api.admin('POST', `/accounts/${account.account_id}/contacts/${archived.id}/archive`), 200);
      const live = await createContact(api, writer, { email: 'neuf@exemple.test' });
      const response = expectStatus(await postEvent(api, key, { event: 'vivant', contact: { external_id: 'crm-vieux', email: 'neuf@exemple.test' } }), 200);
      expect(response.body).toEqual({ status: 'ingested', enrolled_executions: 0 });
      expect(await eventsOfContact(live.id)).toHaveLength(1);
    });

    it('422 business_rule_violation identity_required when a contact must be created from an external_id alone; nothing recorded', async () => {
      const before = await counts();
      const response = await postEvent(api, key, { event: 'x', contact: { external_id: 'inconnu-1', first_name: 'Sans' } });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'business_rule_violation', details: { reason: 'identity_required', field: 'contact' } });
      expect(await counts()).toEqual(before);
    });

    it('two concurrent events for the same new person make one contact and two events', async () => {
      const before = await contactsCount();
      const responses = await Promise.all([0, 1, 2].map(() => postEvent(api, key, { event: 'course', contact: { email: 'course@exemple.test', external_id: 'crm-course' } })));
      expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
      expect(await contactsCount()).toBe(before + 1);
      const [contact] = await db(api).query(`SELECT id FROM contacts.contacts WHERE account_id = $1 AND email = 'course@exemple.test'`, [account.account_id]);
      expect(await eventsOfContact(contact.id)).toHaveLength(3);
    });
  });

  describe('custom_fields', () => {
    it('keyed by definition name, unknown keys silently ignored, additive merge where the new value wins', async () => {
      const contact = await createContact(api, writer, { email: 'champs@exemple.test', custom_fields: { budget: '5 000 $', superficie: 40 } });
      await ingest({ event: 'champs', contact: { email: 'champs@exemple.test' }, custom_fields: { budget: '8 000 $', type_projet: 'cuisine', inconnu: 'x' } });
      const row = await contactRow(contact.id);
      const ids = account.custom_fields as Record<string, string>;
      expect(row.custom_fields).toEqual({ [ids.budget]: '8 000 $', [ids.superficie]: 40, [ids.type_projet]: 'cuisine' });
      expect(await db(api).count('platform.outbox', `account_id = $1 AND type = 'lead_updated' AND payload->>'contact_id' = $2`, [account.account_id, contact.id])).toBe(1);
    });

    it('custom fields of a created contact are set; a definition id as key is not a name (ignored)', async () => {
      const ids = account.custom_fields as Record<string, string>;
      await ingest({ event: 'champs', contact: { email: 'champs.nouveau@exemple.test' }, custom_fields: { superficie: 12, [ids.budget]: 'ignoré' } });
      const [row] = await db(api).query(`SELECT custom_fields FROM contacts.contacts WHERE account_id = $1 AND email = 'champs.nouveau@exemple.test'`, [account.account_id]);
      expect(row.custom_fields).toEqual({ [ids.superficie]: 12 });
    });

    it('a value its definition refuses → 400 invalid_custom_fields with the violations, nothing recorded', async () => {
      const contact = await createContact(api, writer, { email: 'champs.invalides@exemple.test' });
      const before = await counts();
      const response = await postEvent(api, key, {
        event: 'champs',
        contact: { email: 'champs.invalides@exemple.test' },
        custom_fields: { type_projet: 'piscine', superficie: 'grand', budget: 'x'.repeat(1001) },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_custom_fields');
      expect(response.body.details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'custom_fields.type_projet', reason: 'invalid_value' }),
          expect.objectContaining({ field: 'custom_fields.superficie', reason: 'invalid_type' }),
          expect.objectContaining({ field: 'custom_fields.budget', reason: 'too_long' }),
        ]),
      );
      expect(await counts()).toEqual(before);
      expect((await contactRow(contact.id)).custom_fields).toEqual({});
    });
  });

  describe('payload', () => {
    it('stored as sent within the caps; top-level keys kept for {{event.<key>}}', async () => {
      const payload = { message: 'Bonjour', commande: { id: 42, lignes: [{ sku: 'A', qte: 2 }] }, total: 12.5, actif: true, rien: null };
      await ingest({ event: 'commande', contact: { email: 'payload@exemple.test' }, payload });
      expect(await lastEvent()).toMatchObject({ payload, payload_truncated: false });
    });

    it('caps: depth 5 (deeper values become "[truncated]"), 100 keys per object, 2000 characters per string, 16 KiB in all; stored truncated, never refused', async () => {
      const deep = { a: { b: { c: { d: { e: 'trop profond' } } } } };
      const manyKeys = Object.fromEntries(Array.from({ length: 150 }, (_, index) => [`k${index}`, index]));
      await ingest({ event: 'caps', contact: { email: 'caps@exemple.test' }, payload: { deep, manyKeys, long: 'x'.repeat(5000) } });
      const stored = await lastEvent();
      expect(stored.payload_truncated).toBe(true);
      expect(stored.payload.deep).toEqual({ a: { b: { c: { d: '[truncated]' } } } });
      expect(Object.keys(stored.payload.manyKeys)).toHaveLength(100);
      expect(stored.payload.long).toHaveLength(2000);

      const big = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`bloc${index}`, 'y'.repeat(1500)]));
      await ingest({ event: 'caps', contact: { email: 'caps@exemple.test' }, payload: big });
      const bigStored = await lastEvent();
      expect(bigStored.payload_truncated).toBe(true);
      expect(Buffer.byteLength(JSON.stringify(bigStored.payload))).toBeLessThanOrEqual(16 * 1024);
      expect(Object.keys(bigStored.payload)).toEqual(Object.keys(big).slice(0, Object.keys(bigStored.payload).length));
      expect(Object.keys(bigStored.payload).length).toBe(10);
    });
  });

  it('receiving an event establishes no communication consent (no lead capture, no SMS hand-off, no lead_created)', async () => {
    await ingest({ event: 'consentement', contact: { phone: '514 555 0177', email: 'consent@exemple.test' } });
    const [contact] = await db(api).query(`SELECT id FROM contacts.contacts WHERE account_id = $1 AND email = 'consent@exemple.test'`, [account.account_id]);
    expect(await db(api).count('contacts.lead_captures', 'account_id = $1 AND contact_id = $2', [account.account_id, contact.id])).toBe(0);
    expect(await db(api).count('contacts.sms_handoffs', 'account_id = $1 AND contact_id = $2', [account.account_id, contact.id])).toBe(0);
    expect(await db(api).count('platform.outbox', `account_id = $1 AND type = 'lead_created' AND payload->>'contact_id' = $2`, [account.account_id, contact.id])).toBe(0);
    expect(await db(api).count('contacts.email_unsubscribes', 'account_id = $1', [account.account_id])).toBe(0);
  });

  describe('Idempotency-Key', () => {
    it('same key and payload replays the first response without recording again; another payload → 409 idempotency_conflict', async () => {
      const body = { event: 'idem', contact: { email: 'idem@exemple.test' } };
      const first = await postEvent(api, key, body, { headers: { 'idempotency-key': 'evt-1' } });
      const replay = await postEvent(api, key, body, { headers: { 'idempotency-key': 'evt-1' } });
      expect(first.status).toBe(200);
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const [contact] = await db(api).query(`SELECT id FROM contacts.contacts WHERE account_id = $1 AND email = 'idem@exemple.test'`, [account.account_id]);
      expect(await eventsOfContact(contact.id)).toHaveLength(1);
      const conflict = await postEvent(api, key, { ...body, payload: { autre: 1 } }, { headers: { 'idempotency-key': 'evt-1' } });
      expect(conflict.status).toBe(409);
      expect(conflict.body.code).toBe('idempotency_conflict');
      expect(await eventsOfContact(contact.id)).toHaveLength(1);
    });

    it('an invalid Idempotency-Key → 400 invalid_request', async () => {
      const response = await postEvent(api, key, { event: 'idem', contact: { email: 'idem@exemple.test' } }, { headers: { 'idempotency-key': 'pas valide!' } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: 'Idempotency-Key' } });
    });
  });

  describe('tenant isolation', () => {
    it('another account\'s contacts and external ids never match: the event creates a contact in the caller\'s account', async () => {
      await ingest({ event: 'autre', contact: { email: 'partage@exemple.test', external_id: 'crm-partage' } }, other.api_keys.capture.key);
      const [foreign] = await db(api).query(`SELECT id FROM contacts.contacts WHERE account_id = $1 AND email = 'partage@exemple.test'`, [other.account_id]);
      const before = await contactsCount();
      await ingest({ event: 'autre', contact: { external_id: 'crm-partage', email: 'partage@exemple.test' } });
      expect(await contactsCount()).toBe(before + 1);
      expect(await db(api).count('events.custom_events', 'account_id = $1 AND contact_id = $2', [other.account_id, foreign.id])).toBe(1);
      const notFound = await postEvent(api, key, { event: 'autre', contact: { external_id: 'crm-partage', external_source: 'x', create_if_missing: false } });
      expect(notFound.status).toBe(404);
    });
  });

  describe('authorisation and bad input', () => {
    it('403 insufficient_scope without events:ingest', async () => {
      const response = await postEvent(api, writer, { event: 'x', contact: { email: 'scope@exemple.test' } });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'events:ingest' } });
    });

    it('401 invalid_api_key without a valid key', async () => {
      const response = await postEvent(api, 'lf_live_nope_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', { event: 'x', contact: { email: 'a@b.co' } });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('invalid_api_key');
    });

    it('400 validation_error for missing or mistyped members, unknown fields and oversize strings; nothing recorded', async () => {
      const before = await counts();
      const cases: [unknown, string, string][] = [
        [{ contact: { email: 'a@b.co' } }, 'event', 'required'],
        [{ event: '', contact: { email: 'a@b.co' } }, 'event', 'too_short'],
        [{ event: 'x'.repeat(256), contact: { email: 'a@b.co' } }, 'event', 'too_long'],
        [{ event: 12, contact: { email: 'a@b.co' } }, 'event', 'invalid_type'],
        [{ event: 'x' }, 'contact', 'required'],
        [{ event: 'x', contact: 'a@b.co' }, 'contact', 'invalid_type'],
        [{ event: 'x', contact: {} }, 'contact', 'identity_required'],
        [{ event: 'x', contact: { email: '  ' } }, 'contact', 'identity_required'],
        [{ event: 'x', contact: { email: 'pas-un-courriel' } }, 'contact.email', 'invalid_format'],
        [{ event: 'x', contact: { phone: '123' } }, 'contact.phone', 'invalid_phone'],
        [{ event: 'x', contact: { phone: 5145550123 } }, 'contact.phone', 'invalid_type'],
        [{ event: 'x', contact: { email: 'a@b.co', create_if_missing: 'non' } }, 'contact.create_if_missing', 'invalid_type'],
        [{ event: 'x', contact: { email: 'a@b.co', surnom: 'x' } }, 'contact.surnom', 'unknown_field'],
        [{ event: 'x', contact: { external_id: 'y'.repeat(256) } }, 'contact.external_id', 'too_long'],
        [{ event: 'x', contact: { email: 'a@b.co' }, payload: [1, 2] }, 'payload', 'invalid_type'],
        [{ event: 'x', contact: { email: 'a@b.co' }, payload: 'texte' }, 'payload', 'invalid_type'],
        [{ event: 'x', contact: { email: 'a@b.co' }, custom_fields: [] }, 'custom_fields', 'invalid_type'],
        [{ event: 'x', contact: { email: 'a@b.co' }, source_label: 7 }, 'source_label', 'invalid_type'],
        [{ event: 'x', contact: { email: 'a@b.co' }, data: {} }, 'data', 'unknown_field'],
      ];
      for (const [body, field, reason] of cases) {
        const response = await postEvent(api, key, body);
        expect({ body, status: response.status, code: response.body.code }).toEqual({ body, status: 400, code: 'validation_error' });
        expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, reason })]));
      }
      expect(await counts()).toEqual(before);
    });

    it('400 for invalid JSON or a non-object body, 415 for a non-JSON body; a body nested deeper than 32 levels → 400 too_deep (never 500)', async () => {
      for (const rawBody of ['{"event":', '[]', '"x"', 'null', '42']) {
        const response = await postEvent(api, key, undefined, { rawBody });
        expect({ rawBody, status: response.status }).toEqual({ rawBody, status: 400 });
      }
      const text = await postEvent(api, key, undefined, { rawBody: 'event=x', headers: { 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
      const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
      const nested = await postEvent(api, key, undefined, { rawBody: `{"event":"x","contact":{"email":"deep@exemple.test"},"payload":${deep}}` });
      expect(nested.status).toBe(400);
      expect(nested.body).toMatchObject({ code: 'invalid_request', details: { field: '', reason: 'too_deep' } });
      const array = await postEvent(api, key, undefined, { rawBody: `{"event":"x","contact":{"email":"deep@exemple.test"},"payload":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}` });
      expect(array.status).toBe(400);
    });
  });
});
