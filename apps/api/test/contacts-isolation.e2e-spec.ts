import { newId } from '@leadflow/shared-kernel';
import { contactsBlueprint, createContact, createTag, db, envelope, expectStatus, writeCounts } from './support/contacts-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/**
 * Tenant isolation of every contacts and tags route (public-api-v1 › What the service does: another
 * account's resource behaves as missing) and bad input on every body route (4xx envelope, never 500,
 * nothing written).
 */
describe('contacts and tags: tenant isolation and bad input', () => {
  let api: TestApi;
  let mine: ProvisionedAccount;
  let theirs: ProvisionedAccount;
  let token: string;
  let myContact: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  let myTag: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  let theirContact: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  let theirTag: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    api = await TestApi.start();
    mine = await api.provision(contactsBlueprint());
    theirs = await api.provision(contactsBlueprint());
    token = mine.api_keys.full.key;
    myContact = await createContact(api, token, { email: 'mine@example.com', first_name: 'Mine' });
    myTag = await createTag(api, token, { name: 'Mine' });
    theirContact = await createContact(api, theirs.api_keys.full.key, { email: 'theirs@example.com', first_name: 'Zorglub', phone: '5145550900' });
    theirTag = await createTag(api, theirs.api_keys.full.key, { name: 'Theirs' });
    expectStatus(
      await api.request({ method: 'POST', path: `/v1/contacts/${theirContact.id}/tags`, token: theirs.api_keys.full.key, body: { tag_ids: [theirTag.id] } }),
      200,
    );
  });
  afterAll(() => api.close());

  /** Their rows, unchanged by anything done with my key. */
  const theirState = async () => ({
    contact: await db(api).query(`SELECT * FROM contacts.contacts WHERE account_id = $1`, [theirs.account_id]),
    tags: await db(api).query(`SELECT * FROM contacts.contact_tags WHERE account_id = $1`, [theirs.account_id]),
    notes: await db(api).count('contacts.contact_notes', 'account_id = $1', [theirs.account_id]),
  });

  describe("another account's contact or tag id answers exactly like a missing one", () => {
    type Call = (contactId: string, tagId: string) => Promise<TestResponse>;
    const routes: [string, Call][] = [
      ['GET /v1/contacts/{id}', (id) => api.request({ path: `/v1/contacts/${id}?expand=tags`, token })],
      ['PATCH /v1/contacts/{id}', (id) => api.request({ method: 'PATCH', path: `/v1/contacts/${id}`, token, body: { first_name: 'Pirate' } })],
      ['DELETE /v1/contacts/{id}', (id) => api.request({ method: 'DELETE', path: `/v1/contacts/${id}`, token })],
      ['GET /v1/contacts/{id}/timeline', (id) => api.request({ path: `/v1/contacts/${id}/timeline`, token })],
      ['POST /v1/contacts/{id}/tags', (id) => api.request({ method: 'POST', path: `/v1/contacts/${id}/tags`, token, body: { tag_ids: [myTag.id] } })],
      ['DELETE /v1/contacts/{id}/tags/{tag_id}', (id, tagId) => api.request({ method: 'DELETE', path: `/v1/contacts/${id}/tags/${tagId}`, token })],
      ['POST /v1/contacts/{id}/notes', (id) => api.request({ method: 'POST', path: `/v1/contacts/${id}/notes`, token, body: { body: 'espion' } })],
      ['POST /admin/…/contacts/{id}/archive', (id) => api.admin('POST', `/accounts/${mine.account_id}/contacts/${id}/archive`)],
      ['POST /admin/…/contacts/{id}/unarchive', (id) => api.admin('POST', `/accounts/${mine.account_id}/contacts/${id}/unarchive`)],
      ['POST /admin/…/contacts/{id}/disqualify', (id) => api.admin('POST', `/accounts/${mine.account_id}/contacts/${id}/disqualify`)],
      ['POST /admin/…/contacts/{id}/unmerge', (id) => api.admin('POST', `/accounts/${mine.account_id}/contacts/${id}/unmerge`)],
      ['POST /admin/…/contacts/{id}/merge', (id) => api.admin('POST', `/accounts/${mine.account_id}/contacts/${id}/merge`, { into_contact_id: myContact.id })],
      [
        'POST /admin/…/contacts/{mine}/merge into theirs',
        (id) => api.admin('POST', `/accounts/${mine.account_id}/contacts/${myContact.id}/merge`, { into_contact_id: id }),
      ],
    ];

    it.each(routes)('%s', async (_, call) => {
      const before = await theirState();
      const foreign = await call(theirContact.id, theirTag.id);
      const missing = await call(newId(), newId());
      expect(foreign.status).toBe(404);
      expect(envelope(foreign)).toEqual(envelope(missing));
      expect(await theirState()).toEqual(before);
    });

    it("DELETE /v1/contacts/{mine}/tags/{their tag}: 404 like an unknown tag", async () => {
      const foreign = await api.request({ method: 'DELETE', path: `/v1/contacts/${myContact.id}/tags/${theirTag.id}`, token });
      const missing = await api.request({ method: 'DELETE', path: `/v1/contacts/${myContact.id}/tags/${newId()}`, token });
      expect(foreign.status).toBe(404);
      expect(envelope(foreign)).toEqual(envelope(missing));
    });

    it('POST /v1/contacts/{mine}/tags with their tag id: 400 like an unknown tag id; nothing attached', async () => {
      const before = await writeCounts(api);
      const foreign = await api.request({ method: 'POST', path: `/v1/contacts/${myContact.id}/tags`, token, body: { tag_ids: [theirTag.id] } });
      const missing = await api.request({ method: 'POST', path: `/v1/contacts/${myContact.id}/tags`, token, body: { tag_ids: [newId()] } });
      expect(foreign.status).toBe(400);
      const shape = (response: TestResponse) => ({ ...envelope(response), details: response.body.details.map(({ field, reason }: { field: string; reason: string }) => ({ field, reason })) });
      expect({ ...shape(foreign), message: null }).toEqual({ ...shape(missing), message: null });
      expect(foreign.body.details).toEqual([expect.objectContaining({ field: 'tag_ids[0]', reason: 'not_found_in_tenant' })]);
      expect(await writeCounts(api)).toEqual(before);
    });

    it("GET /v1/contacts never lists another account's contacts; their tag filters like an unknown tag", async () => {
      const all = await api.request({ path: '/v1/contacts?limit=100', token });
      expect(all.body.data.map((c: { id: string }) => c.id)).toEqual([myContact.id]);
      expect(all.body.pagination.total_count).toBe(1);
      const byTheirTag = await api.request({ path: `/v1/contacts?tag=${theirTag.id}`, token });
      const byUnknownTag = await api.request({ path: `/v1/contacts?tag=${newId()}`, token });
      expect(byTheirTag.body).toEqual(byUnknownTag.body);
      expect(byTheirTag.body.data).toEqual([]);
      expect((await api.request({ path: '/v1/contacts?search=Zorglub', token })).body.data).toEqual([]);
    });

    it("include=custom_field_definitions lists only the account's own definitions", async () => {
      const response = await api.request({ path: '/v1/contacts?include=custom_field_definitions', token });
      expect(response.body.meta.custom_field_definitions.map((d: { id: string }) => d.id).sort()).toEqual(Object.values(mine.custom_fields!).sort());
    });

    it("POST /v1/contacts with another account's email and phone creates a contact (identities are per account)", async () => {
      const contact = await createContact(api, token, { email: 'THEIRS@example.com', phone: '514-555-0900' });
      expect(contact).toMatchObject({ email: 'theirs@example.com', phone: '+15145550900' });
      await api.request({ method: 'DELETE', path: `/v1/contacts/${contact.id}`, token });
    });

    it("PATCH with another account's email or phone is no conflict", async () => {
      const response = await api.request({ method: 'PATCH', path: `/v1/contacts/${myContact.id}`, token, body: { phone: '5145550900' } });
      expect(response.status).toBe(200);
      myContact = response.body.data;
    });

    it("custom field keys of another account's definitions are unknown", async () => {
      const response = await api.request({
        method: 'PATCH',
        path: `/v1/contacts/${myContact.id}`,
        token,
        body: { custom_fields: { [theirs.custom_fields!.budget]: 'x' } },
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_custom_fields', details: [expect.objectContaining({ reason: 'unknown_field' })] });
    });

    it("GET /v1/tags lists only the account's tags; POST /v1/tags may reuse another account's name", async () => {
      const list = await api.request({ path: '/v1/tags', token });
      expect(list.body.data.map((tag: { id: string }) => tag.id)).toEqual([myTag.id]);
      const same = await api.request({ method: 'POST', path: '/v1/tags', token, body: { name: 'Theirs' } });
      expect(same.status).toBe(201);
    });

    it("the operator routes of one account never reach another account's contacts", async () => {
      const foreign = await api.admin('POST', `/accounts/${theirs.account_id}/contacts/${myContact.id}/archive`);
      expect(foreign.status).toBe(404);
      expect((await api.request({ path: `/v1/contacts/${myContact.id}`, token })).body.data.archived_at).toBeNull();
    });
  });

  describe('bad input on every body route: a 4xx envelope, never 500, nothing written', () => {
    const bodyRoutes: [string, 'POST' | 'PATCH', () => string][] = [
      ['POST /v1/contacts', 'POST', () => '/v1/contacts'],
      ['PATCH /v1/contacts/{id}', 'PATCH', () => `/v1/contacts/${myContact.id}`],
      ['POST /v1/contacts/{id}/tags', 'POST', () => `/v1/contacts/${myContact.id}/tags`],
      ['POST /v1/contacts/{id}/notes', 'POST', () => `/v1/contacts/${myContact.id}/notes`],
      ['POST /v1/tags', 'POST', () => '/v1/tags'],
      ['POST /admin/…/contacts/{id}/merge', 'POST', () => `/admin/v1/accounts/${mine.account_id}/contacts/${myContact.id}/merge`],
    ];
    const tokenFor = (path: string) => (path.startsWith('/admin') ? 'test-admin-token' : token);

    const cases: [string, (path: string, method: 'POST' | 'PATCH') => Promise<TestResponse>, number, string][] = [
      [
        'invalid JSON',
        (path, method) => api.request({ method, path, token: tokenFor(path), rawBody: '{"email": "a@b.co",', headers: { 'content-type': 'application/json' } }),
        400,
        'invalid_request',
      ],
      ['a JSON array', (path, method) => api.request({ method, path, token: tokenFor(path), body: [{ email: 'a@b.co' }] }), 400, 'validation_error'],
      ['a JSON string', (path, method) => api.request({ method, path, token: tokenFor(path), body: 'hello' }), 400, 'validation_error'],
      ['JSON null', (path, method) => api.request({ method, path, token: tokenFor(path), rawBody: 'null', headers: { 'content-type': 'application/json' } }), 400, 'validation_error'],
      [
        'wrong types',
        (path, method) =>
          api.request({
            method,
            path,
            token: tokenFor(path),
            body: { email: 1, first_name: true, phone: [], name: 5, color: 1, body: {}, tag_ids: 'x', into_contact_id: 7, custom_fields: 'x' },
          }),
        400,
        'validation_error',
      ],
      [
        'oversize strings',
        (path, method) => {
          const big = 'x'.repeat(20_000);
          return api.request({
            method,
            path,
            token: tokenFor(path),
            body: path.endsWith('/tags') ? { tag_ids: [big] } : path.endsWith('/merge') ? { into_contact_id: big } : { first_name: big, name: big, body: big, email: big },
          });
        },
        400,
        'validation_error',
      ],
      ['unknown fields', (path, method) => api.request({ method, path, token: tokenFor(path), body: { hacker: true } }), 400, 'validation_error'],
      [
        'a __proto__ member',
        (path, method) =>
          api.request({ method, path, token: tokenFor(path), rawBody: '{"__proto__":{"admin":true}}', headers: { 'content-type': 'application/json' } }),
        400,
        'invalid_request',
      ],
      [
        'no Content-Type',
        (path, method) => api.request({ method, path, token: tokenFor(path), rawBody: '{"email":"a@b.co"}', headers: {} }),
        415,
        'unsupported_media_type',
      ],
      [
        'text/plain',
        (path, method) => api.request({ method, path, token: tokenFor(path), rawBody: 'email=a@b.co', headers: { 'content-type': 'text/plain' } }),
        415,
        'unsupported_media_type',
      ],
      [
        'a body over 1 MB',
        (path, method) => api.request({ method, path, token: tokenFor(path), body: { notes: 'x'.repeat(1_100_000) } }),
        413,
        'payload_too_large',
      ],
    ];

    for (const [route, method, path] of bodyRoutes) {
      it.each(cases)(`${route}: %s`, async (_, send, status, code) => {
        const before = await writeCounts(api);
        const response = await send(path(), method);
        expect(response.status).toBe(status);
        expect(response.body).toMatchObject({ code, message: expect.any(String), request_id: expect.any(String) });
        expect(await writeCounts(api)).toEqual(before);
      });
    }

    it('the unknown-field refusal names the field', async () => {
      const response = await api.request({ method: 'POST', path: '/v1/contacts', token, body: { email: 'x@y.co', hacker: true } });
      expect(response.body.details).toEqual([expect.objectContaining({ field: 'hacker', reason: 'unknown_field' })]);
    });
  });
});
