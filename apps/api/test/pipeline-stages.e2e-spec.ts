import { createContact } from './support/contacts-fixtures';
import { lifecycle, pipelineBlueprint, placeDeal, stages, storedStage } from './support/pipeline-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/** public-api-v1 › Deal and pipeline stage; Endpoints › Pipeline › GET /v1/pipeline/stages. */
describe('GET /v1/pipeline/stages', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;
  let seq = 0;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision(pipelineBlueprint());
    token = account.api_keys.full.key;
  });
  afterAll(() => api.close());

  const list = (key = token) => api.request({ path: '/v1/pipeline/stages', token: key });
  const countsById = async (): Promise<Record<string, number>> =>
    Object.fromEntries((await list()).body.data.map((stage: { id: string; contact_count: number }) => [stage.id, stage.contact_count]));
  const fresh = () => createContact(api, token, { email: `stage${++seq}@example.com` });

  it('lists every stage of every pipeline, pipelines in dashboard order then stage_order, with the pipeline object and unpaginated pagination', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    const { ventes, location } = account.pipelines!;
    const pipelineOf = (slug: 'ventes' | 'location') =>
      slug === 'ventes'
        ? { id: ventes.id, name: 'Ventes', slug: 'ventes', is_default: true }
        : { id: location.id, name: 'Location', slug: 'location', is_default: false };
    const stage = (slug: 'ventes' | 'location', stageSlug: string, name: string, order: number, flags: Record<string, boolean> = {}) => ({
      id: account.pipelines![slug].stages[stageSlug],
      name,
      slug: stageSlug,
      pipeline_id: account.pipelines![slug].id,
      pipeline: pipelineOf(slug),
      stage_order: order,
      is_hidden: false,
      is_default: false,
      is_won: false,
      is_lost: false,
      contact_count: 0,
      ...flags,
    });
    expect(response.body).toEqual({
      data: [
        stage('ventes', 'nouveau', 'Nouveau', 1, { is_default: true }),
        stage('ventes', 'soumission', 'Soumission envoyée', 2),
        stage('ventes', 'cache', 'Caché', 3, { is_hidden: true }),
        stage('ventes', 'gagne', 'Gagné', 4, { is_won: true }),
        stage('ventes', 'perdu', 'Perdu', 5, { is_lost: true }),
        stage('ventes', 'disqualifie', 'Disqualifié', 6),
        stage('location', 'demande', 'Demande', 1, { is_default: true }),
        stage('location', 'signe', 'Signé', 2, { is_won: true }),
      ],
      pagination: { next_cursor: null, has_more: false, limit: 8, total_count: 8 },
    });
  });

  it('each stage shows its slug and its pipeline slug, the identifiers lead capture routes by: a capture naming them lands in that stage', async () => {
    const listed = (await list()).body.data.find((stage: { id: string }) => stage.id === stages(account).location.signe);
    expect(listed).toMatchObject({ slug: 'signe', pipeline: { slug: 'location' } });
    const capture = await api.request({
      method: 'POST',
      path: '/v1/leads/capture',
      token,
      body: { phone: '(514) 302-0001', sms_consent: true, first_name: 'Slug', pipeline: { pipeline_slug: listed.pipeline.slug, stage_slug: listed.slug } },
      remoteAddress: '10.18.0.1',
    });
    expect(capture.status).toBe(200);
    expect(await storedStage(api, capture.body.contact_id)).toMatchObject({ pipeline_id: listed.pipeline_id, stage_id: listed.id });
    expect((await countsById())[listed.id]).toBe(listed.contact_count + 1);
  });

  it('flags absent from the blueprint read false (booleans, never null or missing); hidden stages are listed', async () => {
    const { data } = (await list()).body;
    for (const stage of data) {
      for (const flag of ['is_hidden', 'is_default', 'is_won', 'is_lost']) expect(typeof stage[flag]).toBe('boolean');
      expect(stage.pipeline).toEqual({ id: expect.any(String), name: expect.any(String), slug: expect.any(String), is_default: expect.any(Boolean) });
    }
    expect(data.filter((stage: { is_hidden: boolean }) => stage.is_hidden).map((stage: { name: string }) => stage.name)).toEqual(['Caché']);
  });

  it('contact_count is real time: counts deals per stage, moves and removals show at once', async () => {
    const { ventes, location } = stages(account);
    const [a, b, c] = [await fresh(), await fresh(), await fresh()];
    const before = await countsById();
    await placeDeal(api, token, a.id, ventes.nouveau);
    await placeDeal(api, token, b.id, ventes.nouveau);
    await placeDeal(api, token, c.id, location.demande);
    let counts = await countsById();
    expect(counts[ventes.nouveau]).toBe(before[ventes.nouveau] + 2);
    expect(counts[location.demande]).toBe(before[location.demande] + 1);

    await api.request({ method: 'PATCH', path: `/v1/pipeline/deals/${b.id}`, token, body: { stage_id: ventes.cache } });
    await api.request({ method: 'DELETE', path: `/v1/pipeline/deals/${c.id}`, token });
    counts = await countsById();
    expect(counts[ventes.nouveau]).toBe(before[ventes.nouveau] + 1);
    expect(counts[ventes.cache]).toBe(before[ventes.cache] + 1);
    expect(counts[location.demande]).toBe(before[location.demande]);
  });

  it('contact_count excludes archived and merged contacts (and counts them again once restored); disqualified leads still count', async () => {
    const { ventes } = stages(account);
    const [archived, merged, survivor, disqualified] = [await fresh(), await fresh(), await fresh(), await fresh()];
    for (const contact of [archived, merged, survivor, disqualified]) await placeDeal(api, token, contact.id, ventes.soumission);
    const withAll = (await countsById())[ventes.soumission];

    await lifecycle(api, account.account_id, archived.id, 'archive');
    await lifecycle(api, account.account_id, merged.id, 'merge', { into_contact_id: survivor.id });
    await lifecycle(api, account.account_id, disqualified.id, 'disqualify');
    expect((await countsById())[ventes.soumission]).toBe(withAll - 2);

    await lifecycle(api, account.account_id, archived.id, 'unarchive');
    await lifecycle(api, account.account_id, merged.id, 'unmerge');
    expect((await countsById())[ventes.soumission]).toBe(withAll);
  });

  it('an account without pipelines answers an empty list with the unpaginated pagination object', async () => {
    const empty = await api.provision({ api_keys: [{ name: 'full', preset: 'full_integration' }] });
    const response = await list(empty.api_keys.full.key);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [], pagination: { next_cursor: null, has_more: false, limit: 0, total_count: 0 } });
  });

  it('needs pipeline:read: 403 insufficient_scope with details.required_scope', async () => {
    const response = await list(account.api_keys.contacts.key);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'pipeline:read' } });
    expect((await list(account.api_keys.pipeline_reader.key)).status).toBe(200);
    expect((await list(account.api_keys.pipeline_writer.key)).status).toBe(403);
  });

  it("never lists another account's stages nor counts its contacts", async () => {
    const other = await api.provision(pipelineBlueprint());
    const theirToken = other.api_keys.full.key;
    const before = await countsById();
    const contact = await createContact(api, theirToken, { email: 'theirs@example.com' });
    await placeDeal(api, theirToken, contact.id, stages(other).ventes.nouveau);
    const mine = (await list()).body.data.map((stage: { id: string }) => stage.id);
    expect(mine).toEqual(Object.keys(before));
    expect(mine).not.toContain(stages(other).ventes.nouveau);
    expect(await countsById()).toEqual(before);
    expect((await list(theirToken)).body.data.find((stage: { id: string }) => stage.id === stages(other).ventes.nouveau).contact_count).toBe(1);
  });
});
