import { newId } from '@leadflow/shared-kernel';
import { createContact, db, expectStatus } from './support/contacts-fixtures';
import { dealState, lifecycle, pipelineBlueprint, placeDeal, stages, storedStage } from './support/pipeline-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/** public-api-v1 › States › Deal (pipeline membership) and Endpoints › Pipeline (deal routes). */
describe('deals: POST, PATCH, DELETE /v1/pipeline/deals…', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;
  let ventes: Record<string, string>;
  let location: Record<string, string>;
  let seq = 0;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(pipelineBlueprint());
    token = account.api_keys.full.key;
    ({ ventes, location } = stages(account));
  });
  afterAll(() => api.close());

  const fresh = (body: Record<string, unknown> = {}) => createContact(api, token, { email: `deal${++seq}@example.com`, ...body });
  const post = (contactId: string, stageId: string, key = token) =>
    api.request({ method: 'POST', path: '/v1/pipeline/deals', token: key, body: { contact_id: contactId, stage_id: stageId } });
  const patch = (dealId: string, stageId: string, key = token) => api.request({ method: 'PATCH', path: `/v1/pipeline/deals/${dealId}`, token: key, body: { stage_id: stageId } });
  const remove = (dealId: string, key = token) => api.request({ method: 'DELETE', path: `/v1/pipeline/deals/${dealId}`, token: key });
  const stageEntries = (contactId: string) =>
    db(api).query(`SELECT type, actor, data, created_at FROM platform.activity_log WHERE contact_id = $1 AND type = 'stage_changed' ORDER BY created_at, id`, [contactId]);
  const stageEvents = (contactId: string) =>
    db(api).query(`SELECT type, payload, actor, occurred_at FROM platform.outbox WHERE type = 'stage_changed' AND payload->>'contact_id' = $1 ORDER BY sequence`, [
      contactId,
    ]);
  /** Runs a refused request and checks that nothing of the account changed. */
  const refused = async (send: () => Promise<TestResponse>, status: number, expected: Record<string, unknown>) => {
    const before = await dealState(api, account.account_id);
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject(expected);
    expect(await dealState(api, account.account_id)).toEqual(before);
    return response;
  };

  describe('POST /v1/pipeline/deals', () => {
    it('puts a contact without stage in the stage: 201 { data: deal } with the deal view fields', async () => {
      const contact = await fresh({ first_name: 'Julie', last_name: 'Tremblay', phone: '5145550101', company: 'Tremblay inc.', deal_value: 12500.5 });
      api.clock.advance(1000);
      const response = await post(contact.id, ventes.nouveau);
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        data: {
          id: contact.id,
          first_name: 'Julie',
          last_name: 'Tremblay',
          email: contact.email,
          phone: '+15145550101',
          company: 'Tremblay inc.',
          pipeline_id: account.pipelines!.ventes.id,
          stage_id: ventes.nouveau,
          deal_value: 12500.5,
          // the contact's lead score: email 5, phone 5, name 4, company 2, deal value 2, created now 15
          score: 33,
          created_at: contact.created_at,
          updated_at: api.clock.now().toISOString(),
        },
      });
      expect((await api.request({ path: `/v1/contacts/${contact.id}`, token })).body.data.updated_at).toBe(api.clock.now().toISOString());
    });

    it('a stage move writes, in one transaction, the stage, a stage_changed timeline entry, a stage_changed outbox event (webhook, automations) and stops AI follow-up', async () => {
      const contact = await fresh();
      expect(await storedStage(api, contact.id)).toEqual({ pipeline_id: null, stage_id: null, ai_follow_up_stopped_at: null });
      await placeDeal(api, token, contact.id, ventes.nouveau);
      const now = api.clock.now();
      expect(await storedStage(api, contact.id)).toEqual({ pipeline_id: account.pipelines!.ventes.id, stage_id: ventes.nouveau, ai_follow_up_stopped_at: now });
      const actor = { type: 'api_key', id: account.api_keys.full.id, name: 'full', via: 'api_key' };
      expect(await stageEntries(contact.id)).toEqual([
        { type: 'stage_changed', actor, data: { pipeline_id: account.pipelines!.ventes.id, from_stage_id: null, to_stage_id: ventes.nouveau }, created_at: now },
      ]);
      expect(await stageEvents(contact.id)).toEqual([
        {
          type: 'stage_changed',
          payload: { contact_id: contact.id, pipeline_id: account.pipelines!.ventes.id, from_stage_id: null, to_stage_id: ventes.nouveau },
          actor,
          occurred_at: now,
        },
      ]);
      const activity = await api.admin('GET', `/accounts/${account.account_id}/activity`);
      expect(activity.body.data).toContainEqual(expect.objectContaining({ contact_id: contact.id, type: 'stage_changed' }));
    });

    it('in a stage → another stage of the same pipeline (POST moves it): from/to recorded; the first human decision instant is kept', async () => {
      const contact = await fresh();
      await placeDeal(api, token, contact.id, ventes.nouveau);
      const firstDecision = api.clock.now();
      api.clock.advance(60_000);
      const response = await post(contact.id, ventes.soumission);
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({ stage_id: ventes.soumission, updated_at: api.clock.now().toISOString() });
      expect((await stageEvents(contact.id)).map((event) => event.payload)).toEqual([
        expect.objectContaining({ from_stage_id: null, to_stage_id: ventes.nouveau }),
        expect.objectContaining({ from_stage_id: ventes.nouveau, to_stage_id: ventes.soumission }),
      ]);
      expect((await storedStage(api, contact.id)).ai_follow_up_stopped_at).toEqual(firstDecision);
    });

    it('the same stage again: 201 with the deal, nothing written', async () => {
      const contact = await fresh();
      const deal = await placeDeal(api, token, contact.id, ventes.nouveau);
      api.clock.advance(1000);
      const before = await dealState(api, account.account_id);
      const response = await post(contact.id, ventes.nouveau);
      expect(response.status).toBe(201);
      expect(response.body.data).toEqual(deal);
      expect(await dealState(api, account.account_id)).toEqual(before);
    });

    it('a hidden stage is a stage like another', async () => {
      const contact = await fresh();
      expect((await post(contact.id, ventes.cache)).status).toBe(201);
    });

    it('does not create contacts: an unknown contact_id gives 404 not_found (resource contact, field contact_id)', async () => {
      const contacts = await db(api).count('contacts.contacts');
      await refused(() => post(newId(), ventes.nouveau), 404, { code: 'not_found', details: { resource: 'contact', field: 'contact_id' } });
      expect(await db(api).count('contacts.contacts')).toBe(contacts);
    });

    it('a merged contact: 404 not_found, like a missing one', async () => {
      const [absorbed, survivor] = [await fresh(), await fresh()];
      await lifecycle(api, account.account_id, absorbed.id, 'merge', { into_contact_id: survivor.id });
      await refused(() => post(absorbed.id, ventes.nouveau), 404, { code: 'not_found', details: { resource: 'contact', field: 'contact_id' } });
    });

    it('an unknown stage_id: 404 not_found (resource stage, field stage_id)', async () => {
      const contact = await fresh();
      await refused(() => post(contact.id, newId()), 404, { code: 'not_found', details: { resource: 'stage', field: 'stage_id' }, type: 'not_found_error' });
    });

    it('contact in another pipeline than the stage\'s: 422 business_rule_violation reason other_pipeline', async () => {
      const contact = await fresh();
      await placeDeal(api, token, contact.id, location.demande);
      await refused(() => post(contact.id, ventes.nouveau), 422, {
        code: 'business_rule_violation',
        type: 'unprocessable_error',
        details: { reason: 'other_pipeline', field: 'stage_id' },
      });
    });

    it('a contact without stage may enter any pipeline (taken out of one, put in another)', async () => {
      const contact = await fresh();
      await placeDeal(api, token, contact.id, location.demande);
      expectStatus(await remove(contact.id), 200);
      expect((await post(contact.id, ventes.nouveau)).status).toBe(201);
    });

    it('archived contact: 422 business_rule_violation reason contact_archived', async () => {
      const contact = await fresh();
      await lifecycle(api, account.account_id, contact.id, 'archive');
      await refused(() => post(contact.id, ventes.nouveau), 422, { code: 'business_rule_violation', details: { reason: 'contact_archived' } });
    });

    it('disqualified lead: 409 lead_disqualified towards an open, won or hidden stage', async () => {
      const contact = await fresh();
      await lifecycle(api, account.account_id, contact.id, 'disqualify');
      for (const stageId of [ventes.nouveau, ventes.gagne, ventes.cache, location.demande]) {
        await refused(() => post(contact.id, stageId), 409, { code: 'lead_disqualified', type: 'conflict_error', details: { field: 'stage_id' } });
      }
    });

    it('disqualified lead: moving to a lost stage or to the disqualification stage is still accepted', async () => {
      const lost = await fresh();
      await lifecycle(api, account.account_id, lost.id, 'disqualify');
      expect((await post(lost.id, ventes.perdu)).status).toBe(201);
      const disqualification = await fresh();
      await lifecycle(api, account.account_id, disqualification.id, 'disqualify');
      expect((await post(disqualification.id, ventes.disqualifie)).status).toBe(201);
      expect(await storedStage(api, disqualification.id)).toMatchObject({ stage_id: ventes.disqualifie });
    });
  });

  describe('PATCH /v1/pipeline/deals/{id}', () => {
    it('moves the deal to another stage of its pipeline: 200 { data: deal }, timeline entry and outbox event', async () => {
      const contact = await fresh();
      await placeDeal(api, token, contact.id, ventes.nouveau);
      api.clock.advance(5000);
      const response = await patch(contact.id, ventes.gagne);
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ id: contact.id, pipeline_id: account.pipelines!.ventes.id, stage_id: ventes.gagne, updated_at: api.clock.now().toISOString() });
      expect((await stageEntries(contact.id)).map((entry) => entry.data)).toEqual([
        { pipeline_id: account.pipelines!.ventes.id, from_stage_id: null, to_stage_id: ventes.nouveau },
        { pipeline_id: account.pipelines!.ventes.id, from_stage_id: ventes.nouveau, to_stage_id: ventes.gagne },
      ]);
      expect(await stageEvents(contact.id)).toHaveLength(2);
      expect(await storedStage(api, contact.id)).toMatchObject({ stage_id: ventes.gagne });
    });

    it('the deal must have a stage set: a contact without stage gives 404 not_found (resource deal)', async () => {
      const contact = await fresh();
      await refused(() => patch(contact.id, ventes.nouveau), 404, { code: 'not_found', details: { resource: 'deal' } });
    });

    it('a missing, non-UUID or merged deal gives 404 not_found (resource deal)', async () => {
      const [absorbed, survivor] = [await fresh(), await fresh()];
      await placeDeal(api, token, absorbed.id, ventes.nouveau);
      await lifecycle(api, account.account_id, absorbed.id, 'merge', { into_contact_id: survivor.id });
      for (const id of [newId(), 'not-a-uuid', absorbed.id]) {
        await refused(() => patch(id, ventes.soumission), 404, { code: 'not_found', details: { resource: 'deal' } });
      }
    });

    it('a stage not in the account gives 404 not_found (resource stage); a missing deal is reported first', async () => {
      const contact = await fresh();
      await placeDeal(api, token, contact.id, ventes.nouveau);
      await refused(() => patch(contact.id, newId()), 404, { code: 'not_found', details: { resource: 'stage', field: 'stage_id' } });
      await refused(() => patch(newId(), newId()), 404, { code: 'not_found', details: { resource: 'deal' } });
    });

    it('stage outside the deal\'s pipeline: 422 business_rule_violation reason other_pipeline', async () => {
      const contact = await fresh();
      await placeDeal(api, token, contact.id, ventes.nouveau);
      await refused(() => patch(contact.id, location.demande), 422, { code: 'business_rule_violation', details: { reason: 'other_pipeline', field: 'stage_id' } });
    });

    it('archived contact: 422 business_rule_violation reason contact_archived', async () => {
      const contact = await fresh();
      await placeDeal(api, token, contact.id, ventes.nouveau);
      await lifecycle(api, account.account_id, contact.id, 'archive');
      await refused(() => patch(contact.id, ventes.soumission), 422, { code: 'business_rule_violation', details: { reason: 'contact_archived' } });
    });

    it('disqualified lead: 409 lead_disqualified, except towards a lost stage or the disqualification stage', async () => {
      const contact = await fresh();
      await placeDeal(api, token, contact.id, ventes.soumission);
      await lifecycle(api, account.account_id, contact.id, 'disqualify');
      await refused(() => patch(contact.id, ventes.gagne), 409, { code: 'lead_disqualified' });
      expectStatus(await patch(contact.id, ventes.perdu), 200);
      expectStatus(await patch(contact.id, ventes.disqualifie), 200);
      expect(await storedStage(api, contact.id)).toMatchObject({ stage_id: ventes.disqualifie });
    });
  });

  describe('DELETE /v1/pipeline/deals/{id}', () => {
    it('sets the stage to none and keeps the contact: 200 { data: deal } with pipeline_id and stage_id null; timeline entry and outbox event', async () => {
      const contact = await fresh({ first_name: 'Garde' });
      await placeDeal(api, token, contact.id, ventes.soumission);
      const stopped = api.clock.now();
      api.clock.advance(1000);
      const response = await remove(contact.id);
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ id: contact.id, first_name: 'Garde', pipeline_id: null, stage_id: null, updated_at: api.clock.now().toISOString() });
      expect(await storedStage(api, contact.id)).toEqual({ pipeline_id: null, stage_id: null, ai_follow_up_stopped_at: stopped });
      expect((await api.request({ path: `/v1/contacts/${contact.id}`, token })).status).toBe(200);
      expect((await stageEvents(contact.id)).map((event) => event.payload)[1]).toEqual({
        contact_id: contact.id,
        pipeline_id: account.pipelines!.ventes.id,
        from_stage_id: ventes.soumission,
        to_stage_id: null,
      });
      expect(await stageEntries(contact.id)).toHaveLength(2);
    });

    it('404 not_found when not a deal (no stage, missing, non-UUID, merged)', async () => {
      const noStage = await fresh();
      const [absorbed, survivor] = [await fresh(), await fresh()];
      await placeDeal(api, token, absorbed.id, ventes.nouveau);
      await lifecycle(api, account.account_id, absorbed.id, 'merge', { into_contact_id: survivor.id });
      for (const id of [noStage.id, newId(), 'nope', absorbed.id]) {
        await refused(() => remove(id), 404, { code: 'not_found', details: { resource: 'deal' } });
      }
    });

    it('archived contact: 422 business_rule_violation reason contact_archived; the deal keeps its stage', async () => {
      const contact = await fresh();
      await placeDeal(api, token, contact.id, ventes.nouveau);
      await lifecycle(api, account.account_id, contact.id, 'archive');
      await refused(() => remove(contact.id), 422, { code: 'business_rule_violation', details: { reason: 'contact_archived' } });
      expect(await storedStage(api, contact.id)).toMatchObject({ stage_id: ventes.nouveau });
    });

    it('a disqualified lead may be taken out of its pipeline', async () => {
      const contact = await fresh();
      await placeDeal(api, token, contact.id, ventes.nouveau);
      await lifecycle(api, account.account_id, contact.id, 'disqualify');
      expectStatus(await remove(contact.id), 200);
    });
  });

  describe('scopes', () => {
    it('writes need pipeline:write (403 insufficient_scope, nothing written); pipeline:read alone cannot write', async () => {
      const contact = await fresh();
      await placeDeal(api, token, contact.id, ventes.nouveau);
      for (const key of [account.api_keys.pipeline_reader.key, account.api_keys.contacts.key]) {
        for (const send of [() => post(contact.id, ventes.soumission, key), () => patch(contact.id, ventes.soumission, key), () => remove(contact.id, key)]) {
          await refused(send, 403, { code: 'insufficient_scope', details: { required_scope: 'pipeline:write' } });
        }
      }
      expectStatus(await patch(contact.id, ventes.soumission, account.api_keys.pipeline_writer.key), 200);
    });
  });
});

/** public-api-v1 › Endpoints › Pipeline › GET /v1/pipeline/deals. */
describe('GET /v1/pipeline/deals', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;
  let ventes: Record<string, string>;
  let location: Record<string, string>;
  const ids: string[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(pipelineBlueprint());
    token = account.api_keys.full.key;
    ({ ventes, location } = stages(account));
    // Five deals created one second apart, alternating stages, plus a contact that is not a deal.
    for (let i = 0; i < 5; i++) {
      const contact = await createContact(api, token, { email: `list${i}@example.com`, first_name: `L${i}` });
      await placeDeal(api, token, contact.id, i % 2 === 0 ? ventes.nouveau : location.demande);
      ids.push(contact.id);
      api.clock.advance(1000);
    }
    await createContact(api, token, { email: 'not-a-deal@example.com' });
  });
  afterAll(() => api.close());

  const list = (query = '', key = token) => api.request({ path: `/v1/pipeline/deals${query}`, token: key });

  it('lists the deals only, created_at DESC then id DESC, in the deal view', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body.data.map((deal: { id: string }) => deal.id)).toEqual([...ids].reverse());
    expect(response.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 20, total_count: 5 });
    expect(Object.keys(response.body.data[0]).sort()).toEqual(
      ['id', 'first_name', 'last_name', 'email', 'phone', 'company', 'pipeline_id', 'stage_id', 'deal_value', 'score', 'created_at', 'updated_at'].sort(),
    );
    expect(response.body.data[0]).toMatchObject({ id: ids[4], first_name: 'L4', stage_id: ventes.nouveau, pipeline_id: account.pipelines!.ventes.id, score: 24 });
  });

  it('ties on created_at are broken by id DESC', async () => {
    const other = await api.provision(pipelineBlueprint());
    const same: string[] = [];
    for (let i = 0; i < 3; i++) {
      const contact = await createContact(api, other.api_keys.full.key, { email: `tie${i}@example.com` });
      await placeDeal(api, other.api_keys.full.key, contact.id, stages(other).ventes.nouveau);
      same.push(contact.id);
    }
    const response = await list('', other.api_keys.full.key);
    expect(response.body.data.map((deal: { id: string }) => deal.id)).toEqual([...same].sort().reverse());
  });

  it('stage_id filters on the exact stage', async () => {
    const response = await list(`?stage_id=${ventes.nouveau}`);
    expect(response.body.data.map((deal: { id: string }) => deal.id)).toEqual([ids[4], ids[2], ids[0]]);
    expect(response.body.pagination.total_count).toBe(3);
    expect((await list(`?stage_id=${location.demande.toUpperCase()}`)).body.data.map((deal: { id: string }) => deal.id)).toEqual([ids[3], ids[1]]);
    expect((await list(`?stage_id=${ventes.gagne}`)).body).toEqual({ data: [], pagination: { next_cursor: null, has_more: false, limit: 20, total_count: 0 } });
  });

  it.each(['abc', '123', `${newId()}x`])('a stage_id that is not a UUID (%s) gives 400 invalid_request with details.field stage_id', async (value) => {
    const response = await list(`?stage_id=${value}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: 'stage_id' } });
  });

  it('a repeated stage_id gives 400 invalid_request (field stage_id)', async () => {
    const response = await list(`?stage_id=${ventes.nouveau}&stage_id=${location.demande}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: 'stage_id' } });
  });

  it('cursor pagination: walks every deal once with next_cursor until has_more is false (also filtered)', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: TestResponse = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      expect(response.body.pagination).toMatchObject({ limit: 2, total_count: 5 });
      seen.push(...response.body.data.map((deal: { id: string }) => deal.id));
      cursor = response.body.pagination.has_more ? response.body.pagination.next_cursor : null;
      if (!response.body.pagination.has_more) expect(response.body.pagination.next_cursor).toBeNull();
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const first = await list(`?stage_id=${ventes.nouveau}&limit=2`);
    const second = await list(`?stage_id=${ventes.nouveau}&limit=2&cursor=${first.body.pagination.next_cursor}`);
    expect(second.body.data.map((deal: { id: string }) => deal.id)).toEqual([ids[0]]);
    expect(second.body.pagination).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('the legacy ISO cursor is accepted (rows strictly older)', async () => {
    const created = (await list()).body.data[1].created_at;
    expect((await list(`?cursor=${encodeURIComponent(created)}`)).body.data.map((deal: { id: string }) => deal.id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=abc', 'limit'],
    ['?cursor=%%%', 'cursor'],
  ])('bad pagination %s gives 400 invalid_request (field %s)', async (query, field) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_request', details: { field } });
  });

  it('merged contacts are left out (and come back when unmerged); archived deals stay listed', async () => {
    const survivor = await createContact(api, token, { email: 'survivor@example.com' });
    await lifecycle(api, account.account_id, ids[3], 'merge', { into_contact_id: survivor.id });
    await lifecycle(api, account.account_id, ids[1], 'archive');
    let listed = (await list()).body;
    expect(listed.data.map((deal: { id: string }) => deal.id)).toEqual([ids[4], ids[2], ids[1], ids[0]]);
    expect(listed.pagination.total_count).toBe(4);
    await lifecycle(api, account.account_id, ids[3], 'unmerge');
    await lifecycle(api, account.account_id, ids[1], 'unarchive');
    listed = (await list()).body;
    expect(listed.pagination.total_count).toBe(5);
  });

  it('needs pipeline:read (403 insufficient_scope)', async () => {
    const response = await list('', account.api_keys.contacts.key);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'pipeline:read' } });
    expect((await list('', account.api_keys.pipeline_reader.key)).status).toBe(200);
  });
});
