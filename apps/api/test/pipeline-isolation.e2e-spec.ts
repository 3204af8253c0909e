import { newId } from '@leadflow/shared-kernel';
import { createContact, envelope, writeCounts } from './support/contacts-fixtures';
import { dealState, pipelineBlueprint, placeDeal, stages } from './support/pipeline-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/**
 * Tenant isolation of every pipeline route (public-api-v1 › What the service does: another account's
 * resource behaves as missing) and bad input on every body route (4xx envelope, never 500, nothing
 * written).
 */
describe('pipeline routes: tenant isolation and bad input', () => {
  let api: TestApi;
  let mine: ProvisionedAccount;
  let theirs: ProvisionedAccount;
  let token: string;
  let myContact: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  let myDeal: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  let theirContact: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  let theirDeal: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    api = await TestApi.start();
    mine = await api.provision(pipelineBlueprint());
    theirs = await api.provision(pipelineBlueprint());
    token = mine.api_keys.full.key;
    const theirToken = theirs.api_keys.full.key;
    myContact = await createContact(api, token, { email: 'mine@example.com' });
    const dealContact = await createContact(api, token, { email: 'my-deal@example.com' });
    myDeal = await placeDeal(api, token, dealContact.id, stages(mine).ventes.nouveau);
    theirContact = await createContact(api, theirToken, { email: 'theirs@example.com' });
    const theirDealContact = await createContact(api, theirToken, { email: 'their-deal@example.com', first_name: 'Zorglub' });
    theirDeal = await placeDeal(api, theirToken, theirDealContact.id, stages(theirs).ventes.nouveau);
  });
  afterAll(() => api.close());

  /** Both accounts' deal state: nothing done with my key may change theirs (nor mine, when refused). */
  const bothStates = async () => ({ mine: await dealState(api, mine.account_id), theirs: await dealState(api, theirs.account_id) });

  describe("another account's contact, deal or stage id answers exactly like a missing one; nothing written", () => {
    type Call = (foreign: { contactId: string; dealId: string; stageId: string }) => Promise<TestResponse>;
    const routes: [string, Call][] = [
      ['POST /v1/pipeline/deals: their contact', ({ contactId }) => api.request({ method: 'POST', path: '/v1/pipeline/deals', token, body: { contact_id: contactId, stage_id: stages(mine).ventes.soumission } })],
      ['POST /v1/pipeline/deals: their deal', ({ dealId }) => api.request({ method: 'POST', path: '/v1/pipeline/deals', token, body: { contact_id: dealId, stage_id: stages(mine).ventes.soumission } })],
      ['POST /v1/pipeline/deals: their stage', ({ stageId }) => api.request({ method: 'POST', path: '/v1/pipeline/deals', token, body: { contact_id: myContact.id, stage_id: stageId } })],
      ['PATCH /v1/pipeline/deals/{their deal}', ({ dealId }) => api.request({ method: 'PATCH', path: `/v1/pipeline/deals/${dealId}`, token, body: { stage_id: stages(mine).ventes.soumission } })],
      ['PATCH /v1/pipeline/deals/{their contact}', ({ contactId }) => api.request({ method: 'PATCH', path: `/v1/pipeline/deals/${contactId}`, token, body: { stage_id: stages(mine).ventes.soumission } })],
      ['PATCH /v1/pipeline/deals/{my deal} with their stage', ({ stageId }) => api.request({ method: 'PATCH', path: `/v1/pipeline/deals/${myDeal.id}`, token, body: { stage_id: stageId } })],
      ['DELETE /v1/pipeline/deals/{their deal}', ({ dealId }) => api.request({ method: 'DELETE', path: `/v1/pipeline/deals/${dealId}`, token })],
    ];

    it.each(routes)('%s', async (_, call) => {
      const before = await bothStates();
      const foreign = await call({ contactId: theirContact.id, dealId: theirDeal.id, stageId: stages(theirs).ventes.soumission });
      const missing = await call({ contactId: newId(), dealId: newId(), stageId: newId() });
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('not_found');
      expect(envelope(foreign)).toEqual(envelope(missing));
      expect(await bothStates()).toEqual(before);
    });

    it("GET /v1/pipeline/deals never lists another account's deals; their stage_id filters like an unknown stage", async () => {
      const all = await api.request({ path: '/v1/pipeline/deals', token });
      expect(all.body.data.map((deal: { id: string }) => deal.id)).toEqual([myDeal.id]);
      expect(all.body.pagination.total_count).toBe(1);
      const byTheirStage = await api.request({ path: `/v1/pipeline/deals?stage_id=${stages(theirs).ventes.nouveau}`, token });
      const byUnknownStage = await api.request({ path: `/v1/pipeline/deals?stage_id=${newId()}`, token });
      expect(byTheirStage.status).toBe(200);
      expect(byTheirStage.body).toEqual(byUnknownStage.body);
      expect(byTheirStage.body.data).toEqual([]);
    });

    it("GET /v1/pipeline/stages lists only the account's stages and counts only its contacts", async () => {
      const response = await api.request({ path: '/v1/pipeline/stages', token });
      const ids = response.body.data.map((stage: { id: string }) => stage.id);
      expect(ids.sort()).toEqual([...Object.values(stages(mine).ventes), ...Object.values(stages(mine).location)].sort());
      expect(response.body.data.find((stage: { id: string }) => stage.id === stages(mine).ventes.nouveau).contact_count).toBe(1);
    });
  });

  describe('bad input on every body route: a 4xx envelope, never 500, nothing written', () => {
    const bodyRoutes: [string, 'POST' | 'PATCH', () => string][] = [
      ['POST /v1/pipeline/deals', 'POST', () => '/v1/pipeline/deals'],
      ['PATCH /v1/pipeline/deals/{id}', 'PATCH', () => `/v1/pipeline/deals/${myDeal.id}`],
    ];
    const json = { 'content-type': 'application/json' };
    /** [name, request, status, code, expected details (null: not compared)]; every row has all five members (jest-each). */
    const cases: [string, (path: string, method: 'POST' | 'PATCH') => Promise<TestResponse>, number, string, unknown][] = [
      ['invalid JSON', (path, method) => api.request({ method, path, token, rawBody: '{"stage_id": "', headers: json }), 400, 'invalid_request', { field: '', reason: 'invalid_json' }],
      ['a JSON array', (path, method) => api.request({ method, path, token, body: [{ stage_id: newId() }] }), 400, 'validation_error', [expect.objectContaining({ field: '', reason: 'invalid_type' })]],
      ['a JSON string', (path, method) => api.request({ method, path, token, body: 'hello' }), 400, 'validation_error', [expect.objectContaining({ field: '', reason: 'invalid_type' })]],
      ['JSON null', (path, method) => api.request({ method, path, token, rawBody: 'null', headers: json }), 400, 'validation_error', [expect.objectContaining({ field: '', reason: 'invalid_type' })]],
      ['an empty object', (path, method) => api.request({ method, path, token, body: {} }), 400, 'validation_error', expect.arrayContaining([expect.objectContaining({ field: 'stage_id', reason: 'required' })])],
      ['null ids', (path, method) => api.request({ method, path, token, body: { contact_id: null, stage_id: null } }), 400, 'validation_error', expect.arrayContaining([expect.objectContaining({ field: 'stage_id', reason: 'required' })])],
      ['wrong types', (path, method) => api.request({ method, path, token, body: { contact_id: 5, stage_id: true } }), 400, 'validation_error', expect.arrayContaining([expect.objectContaining({ field: 'stage_id', reason: 'invalid_type' })])],
      ['an object id', (path, method) => api.request({ method, path, token, body: { contact_id: { id: 1 }, stage_id: [newId()] } }), 400, 'validation_error', expect.arrayContaining([expect.objectContaining({ field: 'stage_id', reason: 'invalid_type' })])],
      ['non-UUID ids', (path, method) => api.request({ method, path, token, body: { contact_id: 'abc', stage_id: 'nouveau' } }), 400, 'validation_error', expect.arrayContaining([expect.objectContaining({ field: 'stage_id', reason: 'invalid_format' })])],
      ['an oversize id', (path, method) => api.request({ method, path, token, body: { contact_id: 'x'.repeat(20_000), stage_id: 'x'.repeat(20_000) } }), 400, 'validation_error', null],
      ['unknown fields', (path, method) => api.request({ method, path, token, body: { contact_id: myContact.id, stage_id: stages(mine).ventes.soumission, deal_value: 10 } }), 400, 'validation_error', null],
      ['a __proto__ member', (path, method) => api.request({ method, path, token, rawBody: '{"__proto__":{"admin":true}}', headers: json }), 400, 'invalid_request', null],
      ['no Content-Type', (path, method) => api.request({ method, path, token, rawBody: JSON.stringify({ stage_id: newId() }), headers: {} }), 415, 'unsupported_media_type', null],
      ['text/plain', (path, method) => api.request({ method, path, token, rawBody: 'stage_id=x', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type', null],
      ['a body over 1 MB', (path, method) => api.request({ method, path, token, body: { stage_id: 'x'.repeat(1_100_000) } }), 413, 'payload_too_large', null],
    ];

    for (const [route, method, path] of bodyRoutes) {
      it.each(cases)(`${route}: %s`, async (_, send, status, code, details) => {
        const before = { ...(await bothStates()), counts: await writeCounts(api) };
        const response = await send(path(), method);
        expect(response.status).toBe(status);
        expect(response.body).toMatchObject({ code, message: expect.any(String), request_id: expect.any(String) });
        if (details !== null) expect(response.body.details).toEqual(details);
        expect({ ...(await bothStates()), counts: await writeCounts(api) }).toEqual(before);
      });
    }

    it('the unknown-field refusal names the field', async () => {
      const response = await api.request({ method: 'POST', path: '/v1/pipeline/deals', token, body: { contact_id: myContact.id, stage_id: stages(mine).ventes.soumission, deal_value: 10 } });
      expect(response.body.details).toEqual([expect.objectContaining({ field: 'deal_value', reason: 'unknown_field' })]);
      const patch = await api.request({ method: 'PATCH', path: `/v1/pipeline/deals/${myDeal.id}`, token, body: { stage_id: stages(mine).ventes.soumission, contact_id: myContact.id } });
      expect(patch.body.details).toEqual([expect.objectContaining({ field: 'contact_id', reason: 'unknown_field' })]);
    });

    it('POST names each field refused: contact_id and stage_id', async () => {
      const response = await api.request({ method: 'POST', path: '/v1/pipeline/deals', token, body: { contact_id: 'abc', stage_id: 7 } });
      expect(response.body.details).toEqual([
        expect.objectContaining({ field: 'contact_id', reason: 'invalid_format' }),
        expect.objectContaining({ field: 'stage_id', reason: 'invalid_type' }),
      ]);
    });
  });
});
