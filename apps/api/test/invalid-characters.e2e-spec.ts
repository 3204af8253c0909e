import { freshPhone } from './support/lead-capture-fixtures';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * One rule for characters PostgreSQL cannot store (issue 12 item 3, issue 18 item 1): NUL and unpaired
 * UTF-16 surrogates in any body member (or member name) or query parameter answer 400 `validation_error`,
 * `details` `[{ field, reason: 'invalid_characters' }]`, and nothing is written; lead capture cleans them.
 */
describe('characters PostgreSQL cannot store', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision();
    token = account.api_keys.full.key;
  });
  afterAll(() => api.close());

  const invalidCharacters = (field: string) => ({
    code: 'validation_error',
    details: [expect.objectContaining({ field, reason: 'invalid_characters' })],
  });

  it('a NUL in a tag name answers 400 invalid_characters and creates no tag', async () => {
    const before = await sqlOf(api).count('contacts.tags', account.account_id);
    const response = await api.request({ method: 'POST', path: '/v1/tags', token, body: { name: 'nul\u0000tag' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject(invalidCharacters('name'));
    expect(await sqlOf(api).count('contacts.tags', account.account_id)).toBe(before);
  });

  it.each([
    ['POST /v1/contacts, a lone high surrogate', '/v1/contacts', { email: 'lone@example.com', first_name: '\ud800' }, 'first_name'],
    ['POST /v1/contacts, a lone low surrogate in a custom field', '/v1/contacts', { email: 'low@example.com', custom_fields: { note: 'x\udc00y' } }, 'custom_fields.note'],
    ['POST /v1/contacts, a NUL in a member name', '/v1/contacts', { email: 'key@example.com', custom_fields: { 'a\u0000': 'x' } }, 'custom_fields.a\u0000'],
    ['POST /v1/quotes, a lone surrogate in a line item', '/v1/quotes', { title: 'Toiture', line_items: [{ description: '\ud83d', quantity: 1, unit_price: 10 }] }, 'line_items[0].description'],
  ])('%s answers 400 invalid_characters naming the field, nothing written', async (_label, path, body, field) => {
    const contacts = await sqlOf(api).count('contacts.contacts', account.account_id);
    const quotes = await sqlOf(api).count('quotes.quotes', account.account_id);
    const response = await api.request({ method: 'POST', path, token, body });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject(invalidCharacters(field));
    expect(await sqlOf(api).count('contacts.contacts', account.account_id)).toBe(contacts);
    expect(await sqlOf(api).count('quotes.quotes', account.account_id)).toBe(quotes);
  });

  it('PATCH /v1/contacts/{id} with a lone surrogate answers 400 invalid_characters and leaves the contact as it was', async () => {
    const created = await api.request({ method: 'POST', path: '/v1/contacts', token, body: { email: 'patch@example.com', first_name: 'Émilie' } });
    expect(created.status).toBe(201);
    const response = await api.request({ method: 'PATCH', path: `/v1/contacts/${created.body.data.id}`, token, body: { first_name: 'É\ud800' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject(invalidCharacters('first_name'));
    const [row] = await sqlOf(api).query<{ first_name: string }>('SELECT first_name FROM contacts.contacts WHERE id = $1', [created.body.data.id]);
    expect(row?.first_name).toBe('Émilie');
  });

  it.each([
    ['/v1/contacts', { search: 'a\u0000b' }, 'search'],
    ['/v1/conversations', { agent_slug: '\u0000' }, 'agent_slug'],
    ['/v1/conversations', { source: 'web\u0000' }, 'source'],
  ])('GET %s with a NUL in the query answers 400 invalid_characters (%o)', async (path, query, field) => {
    const response = await api.request({ path, token, query });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject(invalidCharacters(field));
  });

  it('the operator API applies the same rule: a NUL in a blueprint answers 400 and provisions nothing', async () => {
    const before = await sqlOf(api).count('accounts.accounts');
    const response = await api.admin('POST', '/accounts', { name: 'Toitures\u0000 Lévesque' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject(invalidCharacters('name'));
    expect(await sqlOf(api).count('accounts.accounts')).toBe(before);
  });

  it('lead capture cleans such text instead of refusing the lead (NUL removed, surrogate replaced)', async () => {
    const response = await api.request({
      method: 'POST',
      path: '/v1/leads/capture',
      token,
      body: { phone: freshPhone().raw, sms_consent: true, first_name: 'Jo\u0000sée', last_name: 'T\ud800' },
    });
    expect(response.status).toBe(200);
    const [row] = await sqlOf(api).query<{ first_name: string; last_name: string }>('SELECT first_name, last_name FROM contacts.contacts WHERE id = $1', [
      response.body.contact_id,
    ]);
    expect(row).toEqual({ first_name: 'Josée', last_name: 'T\ufffd' });
  });

  it('a valid surrogate pair (an emoji) is stored as sent', async () => {
    const response = await api.request({ method: 'POST', path: '/v1/tags', token, body: { name: 'Chaud 🔥' } });
    expect(response.status).toBe(201);
    expect(response.body.data.name).toBe('Chaud 🔥');
  });
});
