import { newId } from '@leadflow/shared-kernel';
import { contactsBlueprint, createContact, createTag, db, expectStatus, writeCounts } from './support/contacts-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/** public-api-v1 › Contacts: POST /v1/contacts, GET /v1/contacts, GET /v1/contacts/{id}. */
describe('contacts: create, read, list', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let full: string;
  let reader: string;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(contactsBlueprint());
    full = account.api_keys.full.key;
    reader = account.api_keys.reader.key;
  });
  afterAll(() => api.close());

  const post = (body: unknown, token = full, headers: Record<string, string> = {}) => api.request({ method: 'POST', path: '/v1/contacts', token, body, headers });
  const contactsOf = (email: string) => db(api).count('contacts.contacts', 'account_id = $1 AND email = $2', [account.account_id, email]);

  describe('POST /v1/contacts', () => {
    it('creates a contact: 201 with the read shape, email lowercase, phone E.164, source api, main System', async () => {
      const response = await post({
        email: 'Julie.Roy@Tremblay.TEST',
        first_name: 'Julie',
        last_name: 'Roy',
        phone: '(514) 555-0101',
        company: 'Tremblay inc.',
        deal_value: 1500.5,
      });
      expect(response.status).toBe(201);
      expect(response.body.data).toEqual({
        id: expect.any(String),
        email: 'julie.roy@tremblay.test',
        first_name: 'Julie',
        last_name: 'Roy',
        phone: '+15145550101',
        company: 'Tremblay inc.',
        deal_value: 1500.5,
        custom_fields: {},
        is_priority: false,
        notes: null,
        system_id: account.systems.Main,
        source: 'api',
        // lead score: email 5, phone 5, name 4, company 2, deal value 2, created now 15 (README › Decisions › Lead score)
        score: 33,
        archived_at: null,
        disqualified_at: null,
        created_at: api.clock.now().toISOString(),
        updated_at: api.clock.now().toISOString(),
      });
      const read = await api.request({ path: `/v1/contacts/${response.body.data.id}`, token: full });
      expect(read.body.data).toEqual(response.body.data);
      const [row] = await db(api).query(`SELECT deal_value_cents, source FROM contacts.contacts WHERE id = $1`, [response.body.data.id]);
      expect(row).toEqual({ deal_value_cents: '150050', source: 'api' });
      const identities = await db(api).query(`SELECT kind, value, is_primary FROM contacts.contact_identities WHERE contact_id = $1 ORDER BY kind`, [
        response.body.data.id,
      ]);
      expect(identities).toEqual([
        { kind: 'email', value: 'julie.roy@tremblay.test', is_primary: true },
        { kind: 'phone', value: '+15145550101', is_primary: true },
      ]);
    });

    it('writes a contact_created activity entry and outbox event named after the API key', async () => {
      const contact = await createContact(api, full, { email: 'activity@example.com' });
      const [activity] = await db(api).query(`SELECT type, actor FROM platform.activity_log WHERE contact_id = $1`, [contact.id]);
      expect(activity).toEqual({ type: 'contact_created', actor: { type: 'api_key', id: account.api_keys.full.id, name: 'full', via: 'api_key' } });
      const events = await db(api).query(`SELECT type, payload FROM platform.outbox WHERE payload->>'contact_id' = $1`, [contact.id]);
      expect(events).toEqual([{ type: 'contact_created', payload: { contact_id: contact.id, contact } }]);
    });

    it('an uppercase variant of an email never creates a second contact (409 duplicate_contact)', async () => {
      const existing = await createContact(api, full, { email: 'case@example.com', first_name: 'Case' });
      const response = await post({ email: 'CASE@Example.com' });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe('duplicate_contact');
      expect(await contactsOf('case@example.com')).toBe(1);
      expect(response.body.data.id).toBe(existing.id);
    });

    it('email or phone is required: 400 validation_error reason identity_required, nothing created', async () => {
      const before = await writeCounts(api);
      const response = await post({ first_name: 'Nobody', company: 'Nowhere' });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_error');
      expect(response.body.details).toEqual([
        expect.objectContaining({ field: 'email', reason: 'identity_required' }),
        expect.objectContaining({ field: 'phone', reason: 'identity_required' }),
      ]);
      expect(await writeCounts(api)).toEqual(before);
    });

    it('an invalid phone gives 400 validation_error reason invalid_phone, nothing created', async () => {
      const before = await writeCounts(api);
      const response = await post({ email: 'badphone@example.com', phone: '12345' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: 'phone', reason: 'invalid_phone' })] });
      expect(await writeCounts(api)).toEqual(before);
    });

    it('phone: at most 50 characters on create (400 validation_error too_long)', async () => {
      const response = await post({ phone: `514555010${'1'.repeat(42)}` });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ field: 'phone', reason: 'too_long' })]);
    });

    it('an invalid email gives 400 validation_error reason invalid_format', async () => {
      const response = await post({ email: 'not-an-email' });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ field: 'email', reason: 'invalid_format' })]);
    });

    it('deal_value: positive amounts only, at most two decimals (400 validation_error invalid_value)', async () => {
      for (const deal_value of [0, -10, 10.123]) {
        const response = await post({ email: `deal${deal_value}@example.com`, deal_value });
        expect(response.status).toBe(400);
        expect(response.body.details).toEqual([expect.objectContaining({ field: 'deal_value', reason: 'invalid_value' })]);
      }
      expect(await db(api).count('contacts.contacts', `email LIKE 'deal%'`)).toBe(0);
    });

    describe('duplicate detection across primary and secondary identities', () => {
      let existing: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

      beforeAll(async () => {
        existing = await createContact(api, full, { email: 'dup@example.com', phone: '514-555-0150', first_name: 'Dup' });
        // A secondary email and phone, as lead capture keeps them.
        await db(api).query(
          `INSERT INTO contacts.contact_identities (account_id, contact_id, kind, value, is_primary, created_at)
           VALUES ($1, $2, 'email', 'dup.secondary@example.com', false, now()), ($1, $2, 'phone', '+15145550151', false, now())`,
          [account.account_id, existing.id],
        );
      });

      it.each([
        ['the primary email', { email: 'DUP@example.com' }, ['email']],
        ['the primary phone in another format', { phone: '+1 (514) 555-0150' }, ['phone']],
        ['both primary identities', { email: 'dup@example.com', phone: '5145550150' }, ['email', 'phone']],
        ['a secondary email', { email: 'dup.secondary@example.com' }, ['email']],
        ['a secondary phone', { phone: '514.555.0151', first_name: 'Other' }, ['phone']],
        ['a new email with a known phone', { email: 'brand-new@example.com', phone: '5145550150' }, ['phone']],
      ])('%s: 409 duplicate_contact with the existing contact in data and details.conflicting_fields; nothing created', async (_, body, fields) => {
        const before = await writeCounts(api);
        const response = await post(body);
        expect(response.status).toBe(409);
        expect(response.body).toMatchObject({ code: 'duplicate_contact', type: 'conflict_error', details: { conflicting_fields: fields } });
        expect(response.body.data).toEqual(existing);
        expect(await writeCounts(api)).toEqual(before);
      });

      it('email and phone of two different contacts: 409 duplicate_resource without a contact; nothing created', async () => {
        await createContact(api, full, { email: 'other-person@example.com' });
        const before = await writeCounts(api);
        const response = await post({ email: 'other-person@example.com', phone: '5145550150' });
        expect(response.status).toBe(409);
        expect(response.body).toMatchObject({ code: 'duplicate_resource', details: { conflicting_fields: ['email', 'phone'] } });
        expect(response.body.data).toBeUndefined();
        expect(await writeCounts(api)).toEqual(before);
      });

      it('an archived contact still counts as the existing person', async () => {
        const archived = await createContact(api, full, { email: 'archived-dup@example.com' });
        expectStatus(await api.admin('POST', `/accounts/${account.account_id}/contacts/${archived.id}/archive`), 200);
        const response = await post({ email: 'archived-dup@example.com' });
        expect(response.status).toBe(409);
        expect(response.body.data).toMatchObject({ id: archived.id, archived_at: expect.any(String) });
      });
    });

    it('duplicates are impossible under concurrent creates: one 201, the others 409 duplicate_contact', async () => {
      const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => post({ email: 'race@example.com', first_name: `Racer ${i}` })));
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
      const created = responses.find((response) => response.status === 201)!.body.data;
      for (const response of responses.filter((r) => r.status === 409)) {
        expect(response.body.code).toBe('duplicate_contact');
        expect(response.body.data.id).toBe(created.id);
      }
      expect(await contactsOf('race@example.com')).toBe(1);
    });

    describe('system_id', () => {
      it('unknown for the account: 422 system_not_found, none created', async () => {
        for (const system_id of [newId(), 'not-a-uuid']) {
          const before = await writeCounts(api);
          const response = await post({ email: 'nosystem@example.com', system_id });
          expect(response.status).toBe(422);
          expect(response.body).toMatchObject({ code: 'system_not_found', type: 'unprocessable_error', details: { field: 'system_id' } });
          expect(await writeCounts(api)).toEqual(before);
        }
      });

      it("another account's System is unknown (422 system_not_found)", async () => {
        const other = await api.provision({ systems: [{ name: 'Ailleurs', is_main: true }] });
        const response = await post({ email: 'foreign-system@example.com', system_id: other.systems.Ailleurs });
        expect(response.status).toBe(422);
        expect(response.body.code).toBe('system_not_found');
      });

      it('an archived (inactive) System falls back silently to the main System', async () => {
        const contact = await createContact(api, full, { email: 'laval@example.com', system_id: account.systems.Laval });
        expect(contact.system_id).toBe(account.systems.Main);
      });

      it('an active System is kept; omitted means the main System', async () => {
        expect((await createContact(api, full, { email: 'quebec@example.com', system_id: account.systems['Québec'] })).system_id).toBe(
          account.systems['Québec'],
        );
        expect((await createContact(api, full, { phone: '5145550177' })).system_id).toBe(account.systems.Main);
      });
    });

    describe('custom_fields', () => {
      it('keys sent by definition name or id are returned keyed by definition id', async () => {
        const ids = account.custom_fields!;
        const contact = await createContact(api, full, {
          email: 'custom@example.com',
          custom_fields: {
            budget: '10 000 $',
            [ids.superficie]: 120.5,
            type_projet: 'cuisine',
            site_web: 'https://tremblay.test',
            courriel_secondaire: 'Autre@Example.com',
            cellulaire: '(438) 555-0199',
            date_debut: '2026-05-01',
            financement: true,
          },
        });
        expect(contact.custom_fields).toEqual({
          [ids.budget]: '10 000 $',
          [ids.superficie]: 120.5,
          [ids.type_projet]: 'cuisine',
          [ids.site_web]: 'https://tremblay.test',
          [ids.courriel_secondaire]: 'autre@example.com',
          [ids.cellulaire]: '+14385550199',
          [ids.date_debut]: '2026-05-01',
          [ids.financement]: true,
        });
      });

      it('an unknown key or incompatible type: 400 invalid_custom_fields with violations in details; nothing created', async () => {
        const before = await writeCounts(api);
        const response = await post({
          email: 'badcustom@example.com',
          custom_fields: {
            inconnu: 'x',
            superficie: 'grand',
            type_projet: 'garage',
            budget: 'x'.repeat(1001),
            description: 'x'.repeat(4001),
            site_web: 'ftp://tremblay.test',
            courriel_secondaire: 'pas-un-courriel',
            cellulaire: '123',
            date_debut: '2026-02-30',
            financement: 'oui',
          },
        });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('invalid_custom_fields');
        expect(response.body.details).toEqual([
          expect.objectContaining({ field: 'custom_fields.inconnu', reason: 'unknown_field' }),
          expect.objectContaining({ field: 'custom_fields.superficie', reason: 'invalid_type' }),
          expect.objectContaining({ field: 'custom_fields.type_projet', reason: 'invalid_value' }),
          expect.objectContaining({ field: 'custom_fields.budget', reason: 'too_long' }),
          expect.objectContaining({ field: 'custom_fields.description', reason: 'too_long' }),
          expect.objectContaining({ field: 'custom_fields.site_web', reason: 'invalid_format' }),
          expect.objectContaining({ field: 'custom_fields.courriel_secondaire', reason: 'invalid_format' }),
          expect.objectContaining({ field: 'custom_fields.cellulaire', reason: 'invalid_phone' }),
          expect.objectContaining({ field: 'custom_fields.date_debut', reason: 'invalid_format' }),
          expect.objectContaining({ field: 'custom_fields.financement', reason: 'invalid_type' }),
        ]);
        expect(await writeCounts(api)).toEqual(before);
      });

      it('maximum lengths are inclusive (text 1000, long text 4000, url 2048, email 320, phone 30)', async () => {
        const url = `https://tremblay.test/${'a'.repeat(2048 - 'https://tremblay.test/'.length)}`;
        const email = `${'a'.repeat(64)}@${'b'.repeat(250)}.test`;
        const contact = await createContact(api, full, {
          email: 'limits@example.com',
          custom_fields: { budget: 'x'.repeat(1000), description: 'y'.repeat(4000), site_web: url, courriel_secondaire: email },
        });
        expect(Object.keys(contact.custom_fields)).toHaveLength(4);
        expect(email).toHaveLength(320);
        const response = await post({ email: 'limits2@example.com', custom_fields: { cellulaire: `+1 514 555 0123${' '.repeat(16)}` } });
        expect(response.status).toBe(400);
        expect(response.body.details).toEqual([expect.objectContaining({ field: 'custom_fields.cellulaire', reason: 'too_long' })]);
      });
    });

    describe('Idempotency-Key', () => {
      it('same key and payload replays the response; one contact is created', async () => {
        const body = { email: 'idem@example.com', first_name: 'Idem' };
        const first = await post(body, full, { 'idempotency-key': 'create-idem-1' });
        expect(first.status).toBe(201);
        api.clock.advance(1000);
        const replay = await post(body, full, { 'idempotency-key': 'create-idem-1' });
        expect(replay.status).toBe(201);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.body).toEqual(first.body);
        expect(await contactsOf('idem@example.com')).toBe(1);
      });

      it('same key with another payload gives 409 idempotency_conflict; nothing created', async () => {
        await post({ email: 'idem2@example.com' }, full, { 'idempotency-key': 'create-idem-2' });
        const before = await writeCounts(api);
        const response = await post({ email: 'idem3@example.com' }, full, { 'idempotency-key': 'create-idem-2' });
        expect(response.status).toBe(409);
        expect(response.body.code).toBe('idempotency_conflict');
        expect(await writeCounts(api)).toEqual(before);
        expect(await contactsOf('idem3@example.com')).toBe(0);
      });

      it('a refused request is not stored: the key stays usable', async () => {
        const refused = await post({ first_name: 'No identity' }, full, { 'idempotency-key': 'create-idem-3' });
        expect(refused.status).toBe(400);
        const accepted = await post({ email: 'idem4@example.com' }, full, { 'idempotency-key': 'create-idem-3' });
        expect(accepted.status).toBe(201);
      });

      it('a malformed key gives 400 invalid_request', async () => {
        const response = await post({ email: 'idem5@example.com' }, full, { 'idempotency-key': 'bad key!' });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: 'Idempotency-Key' } });
        expect(await contactsOf('idem5@example.com')).toBe(0);
      });
    });

    it('needs contacts:write: 403 insufficient_scope with details.required_scope; nothing created', async () => {
      const before = await writeCounts(api);
      const response = await post({ email: 'scope@example.com' }, reader);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'contacts:write' } });
      expect(await writeCounts(api)).toEqual(before);
    });
  });

  describe('GET /v1/contacts/{id}', () => {
    it('expand=tags adds client_contact_tags with id, name, color, system_key', async () => {
      const contact = await createContact(api, full, { email: 'expand@example.com' });
      const tag = await createTag(api, full, { name: 'Expand VIP', color: '#112233' });
      expectStatus(await api.request({ method: 'POST', path: `/v1/contacts/${contact.id}/tags`, token: full, body: { tag_ids: [tag.id] } }), 200);
      const plain = await api.request({ path: `/v1/contacts/${contact.id}`, token: reader });
      expect(plain.body.data.client_contact_tags).toBeUndefined();
      const expanded = await api.request({ path: `/v1/contacts/${contact.id}?expand=tags`, token: reader });
      expect(expanded.status).toBe(200);
      expect(expanded.body.data.client_contact_tags).toEqual([
        expect.objectContaining({ id: tag.id, name: 'Expand VIP', color: '#112233', system_key: null }),
      ]);
    });

    it('a missing or non-UUID id answers 404 not_found alike', async () => {
      const missing = await api.request({ path: `/v1/contacts/${newId()}`, token: reader });
      const garbage = await api.request({ path: '/v1/contacts/not-a-uuid', token: reader });
      for (const response of [missing, garbage]) {
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'not_found', type: 'not_found_error', details: { resource: 'contact' } });
      }
    });

    it('needs contacts:read (403 insufficient_scope)', async () => {
      const contact = await createContact(api, full, { email: 'scope-read@example.com' });
      const response = await api.request({ path: `/v1/contacts/${contact.id}`, token: account.api_keys.tagger.key });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'contacts:read' } });
    });
  });
});

describe('GET /v1/contacts (list)', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;
  const created: Record<string, any>[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(contactsBlueprint());
    token = account.api_keys.full.key;
    // 25 contacts: pairs share a created_at instant (id breaks the tie).
    for (let i = 0; i < 25; i++) {
      if (i % 2 === 0) api.clock.advance(60_000);
      created.push(await createContact(api, token, { email: `person${String(i).padStart(2, '0')}@list.test`, first_name: `Person${i}` }));
    }
  });
  afterAll(() => api.close());

  const list = (query = '') => api.request({ path: `/v1/contacts${query}`, token: account.api_keys.reader.key });
  const expectedOrder = () =>
    [...created].sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1)).map((c) => c.id);

  it('sorts created_at DESC, id DESC with the default limit 20', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual(expectedOrder().slice(0, 20));
    expect(response.body.pagination).toEqual({ next_cursor: expect.any(String), has_more: true, limit: 20, total_count: 25 });
  });

  it('walks every page with next_cursor until has_more is false', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await list(`?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      expect(response.body.pagination.total_count).toBe(25);
      seen.push(...response.body.data.map((c: { id: string }) => c.id));
      cursor = response.body.pagination.has_more ? response.body.pagination.next_cursor : null;
      if (!response.body.pagination.has_more) expect(response.body.pagination.next_cursor).toBeNull();
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toEqual(expectedOrder());
  });

  it('accepts the legacy ISO-timestamp cursor (rows strictly older than the instant)', async () => {
    const order = expectedOrder();
    const pivot = created.find((c) => c.id === order[5])!;
    const response = await list(`?cursor=${encodeURIComponent(pivot.created_at)}&limit=100`);
    expect(response.status).toBe(200);
    const older = created.filter((c) => c.created_at < pivot.created_at).map((c) => c.id);
    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual(order.filter((id) => older.includes(id)));
  });

  it.each(['0', '101', 'abc', '-1', '1.5'])('limit=%s gives 400 invalid_request with details.field limit', async (limit) => {
    const response = await list(`?limit=${limit}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: 'limit' } });
  });

  it('an unreadable cursor gives 400 invalid_request with details.field cursor', async () => {
    const response = await list('?cursor=%%%');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: 'cursor' } });
  });

  describe('search', () => {
    beforeAll(async () => {
      await createContact(api, token, { email: 'marie.curie@radium.test', first_name: 'Marie', last_name: 'Curie', company: 'Institut (Radium), Paris' });
      await createContact(api, token, { email: 'pierre@radium.test', first_name: 'Pierre', last_name: 'Curie', company: 'Sorbonne' });
      await createContact(api, token, { phone: '5145550188', first_name: 'Ada', last_name: 'Lovelace', company: '100% Analytique' });
    });

    const searchIds = async (search: string) => {
      const response = await list(`?search=${encodeURIComponent(search)}&limit=100`);
      expect(response.status).toBe(200);
      return response.body.data.map((c: { first_name: string }) => c.first_name).sort();
    };

    it('each word must appear case-insensitively in email, first_name, last_name or company; words combine with AND in any order', async () => {
      expect(await searchIds('curie')).toEqual(['Marie', 'Pierre']);
      expect(await searchIds('CURIE marie')).toEqual(['Marie']);
      expect(await searchIds('marie   CURIE')).toEqual(['Marie']);
      expect(await searchIds('sorbonne pierre@')).toEqual(['Pierre']);
      expect(await searchIds('curie lovelace')).toEqual([]);
    });

    it('each word is a literal: commas, parentheses, periods, % and _ have no effect', async () => {
      expect(await searchIds('(radium),')).toEqual(['Marie']);
      expect(await searchIds('marie.curie')).toEqual(['Marie']);
      expect(await searchIds('marie_curie')).toEqual([]);
      expect(await searchIds('100%')).toEqual(['Ada']);
      expect(await searchIds('%')).toEqual(['Ada']);
    });

    it('a search over 500 characters, or a repeated parameter, gives 400 invalid_request with details.field', async () => {
      const long = await list(`?search=${'a'.repeat(501)}`);
      expect(long.status).toBe(400);
      expect(long.body).toMatchObject({ code: 'invalid_request', details: { field: 'search' } });
      const repeated = await list('?search=a&search=b');
      expect(repeated.status).toBe(400);
      expect(repeated.body).toMatchObject({ code: 'invalid_request', details: { field: 'search' } });
    });

    it('total_count counts the matches', async () => {
      expect((await list('?search=curie&limit=1')).body.pagination).toMatchObject({ total_count: 2, has_more: true, limit: 1 });
    });
  });

  describe('tag filter', () => {
    it('lists the contacts carrying the tag (campaign lead count by walking pages)', async () => {
      const tag = await createTag(api, token, { name: 'Salon' });
      for (const contact of created.slice(0, 3)) {
        expectStatus(await api.request({ method: 'POST', path: `/v1/contacts/${contact.id}/tags`, token, body: { tag_ids: [tag.id] } }), 200);
      }
      const response = await list(`?tag=${tag.id}`);
      expect(response.body.data.map((c: { id: string }) => c.id).sort()).toEqual(created.slice(0, 3).map((c) => c.id).sort());
      expect(response.body.pagination).toMatchObject({ total_count: 3, has_more: false });
    });

    it('a non-UUID tag gives 400 invalid_request with details.field tag', async () => {
      const response = await list('?tag=salon');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: 'tag' } });
    });

    it('an empty tag parameter means no filter', async () => {
      const response = await list('?tag=');
      expect(response.status).toBe(200);
      expect(response.body.pagination.total_count).toBeGreaterThan(3);
    });

    it('an unknown tag gives an empty list', async () => {
      const response = await list(`?tag=${newId()}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ data: [], pagination: { total_count: 0, has_more: false, next_cursor: null } });
    });
  });

  it('include=custom_field_definitions adds meta.custom_field_definitions', async () => {
    const response = await list('?include=custom_field_definitions&limit=1');
    expect(response.status).toBe(200);
    const definitions = response.body.meta.custom_field_definitions;
    expect(definitions).toHaveLength(9);
    expect(definitions[0]).toEqual({ id: account.custom_fields!.budget, name: 'budget', type: 'text', options: null });
    expect(definitions).toContainEqual({
      id: account.custom_fields!.type_projet,
      name: 'type_projet',
      type: 'select',
      options: ['cuisine', 'salle_de_bain', 'sous_sol'],
    });
    expect((await list('?limit=1')).body.meta).toBeUndefined();
  });

  it('needs contacts:read (403 insufficient_scope with details.required_scope)', async () => {
    const response = await api.request({ path: '/v1/contacts', token: account.api_keys.tagger.key });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'contacts:read' } });
  });
});
