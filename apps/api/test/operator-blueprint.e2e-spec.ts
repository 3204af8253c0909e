import { QueryBus } from '@nestjs/cqrs';
import { asAccountId } from '@leadflow/shared-kernel';
import { GetDefaultSenderQuery, ListSendersQuery } from '@leadflow/messaging-contracts';
import { FindPipelineQuery, FindStageBySlugQuery, FindStageQuery, ListPipelinesQuery, ListStagesQuery } from '@leadflow/pipeline-contracts';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { blueprintCounts, sqlOf } from './support/sql';
import { TestApi } from './support/test-api';

/** The pipelines of operator-api's example blueprint. */
const VENTES = {
  name: 'Ventes',
  slug: 'ventes',
  is_default: true,
  stages: [
    { name: 'Nouveau', slug: 'nouveau', is_default: true },
    { name: 'Soumission envoyée', slug: 'soumission' },
    { name: 'Caché', slug: 'cache', is_hidden: true },
    { name: 'Gagné', slug: 'gagne', is_won: true },
    { name: 'Perdu', slug: 'perdu', is_lost: true },
    { name: 'Disqualifié', slug: 'disqualifie', is_disqualification: true },
  ],
};
const RENOS = { name: 'Rénovations', slug: 'renos', stages: [{ name: 'Visite', slug: 'visite' }, { name: 'Devis', slug: 'devis', is_default: true }] };

describe('POST /admin/v1/accounts: pipelines and senders of a blueprint (operator-api › provision an account from a blueprint)', () => {
  let api: TestApi;
  let sql: ReturnType<typeof sqlOf>;

  beforeAll(async () => {
    api = await TestApi.start();
    sql = sqlOf(api);
  });
  afterAll(() => api.close());

  /** Posts a blueprint and asserts that a refusal wrote nothing anywhere. */
  async function refused(blueprint: unknown) {
    const before = await blueprintCounts(api);
    const response = await api.admin('POST', '/accounts', blueprint);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await blueprintCounts(api)).toEqual(before);
    return response;
  }

  it('answers 201 with pipelines keyed by slug (id and stages by slug) and senders keyed by email, and writes them', async () => {
    const response = await api.admin('POST', '/accounts', {
      name: 'Rénovations Tremblay',
      timezone: 'America/Montreal',
      senders: [
        { email: 'Bonjour@Tremblay.test', name: 'Rénovations Tremblay', is_default: true },
        { email: 'soumissions@tremblay.test' },
      ],
      pipelines: [VENTES, RENOS],
    });
    expect(response.status).toBe(201);
    const { account_id: accountId, pipelines, senders } = response.body;
    expect(Object.keys(pipelines)).toEqual(['ventes', 'renos']);
    expect(pipelines.ventes).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      stages: {
        nouveau: expect.any(String),
        soumission: expect.any(String),
        cache: expect.any(String),
        gagne: expect.any(String),
        perdu: expect.any(String),
        disqualifie: expect.any(String),
      },
    });
    expect(senders).toEqual({ 'bonjour@tremblay.test': expect.any(String), 'soumissions@tremblay.test': expect.any(String) });

    const pipelineRows = await sql.query(
      `SELECT id, name, slug, is_default, dashboard_order FROM pipeline.pipelines WHERE account_id = $1 ORDER BY dashboard_order`,
      [accountId],
    );
    expect(pipelineRows).toEqual([
      { id: pipelines.ventes.id, name: 'Ventes', slug: 'ventes', is_default: true, dashboard_order: 1 },
      { id: pipelines.renos.id, name: 'Rénovations', slug: 'renos', is_default: false, dashboard_order: 2 },
    ]);
    const stageRows = await sql.query(
      `SELECT id, pipeline_id, slug, stage_order, is_default, is_hidden, is_won, is_lost, is_disqualification
         FROM pipeline.stages WHERE account_id = $1 AND pipeline_id = $2 ORDER BY stage_order`,
      [accountId, pipelines.ventes.id],
    );
    const flags = (slug: string, extra: Record<string, boolean> = {}) => ({
      is_default: false, is_hidden: false, is_won: false, is_lost: false, is_disqualification: false, ...extra, slug,
    });
    expect(stageRows).toEqual([
      { ...flags('nouveau', { is_default: true }), id: pipelines.ventes.stages.nouveau, pipeline_id: pipelines.ventes.id, stage_order: 1 },
      { ...flags('soumission'), id: pipelines.ventes.stages.soumission, pipeline_id: pipelines.ventes.id, stage_order: 2 },
      { ...flags('cache', { is_hidden: true }), id: pipelines.ventes.stages.cache, pipeline_id: pipelines.ventes.id, stage_order: 3 },
      { ...flags('gagne', { is_won: true }), id: pipelines.ventes.stages.gagne, pipeline_id: pipelines.ventes.id, stage_order: 4 },
      { ...flags('perdu', { is_lost: true }), id: pipelines.ventes.stages.perdu, pipeline_id: pipelines.ventes.id, stage_order: 5 },
      { ...flags('disqualifie', { is_disqualification: true }), id: pipelines.ventes.stages.disqualifie, pipeline_id: pipelines.ventes.id, stage_order: 6 },
    ]);
    expect(await sql.query(`SELECT slug, is_default FROM pipeline.stages WHERE pipeline_id = $1 ORDER BY stage_order`, [pipelines.renos.id])).toEqual([
      { slug: 'visite', is_default: false },
      { slug: 'devis', is_default: true },
    ]);
    expect(await sql.query(`SELECT id, email, name, is_default FROM messaging.senders WHERE account_id = $1 ORDER BY email`, [accountId])).toEqual([
      { id: senders['bonjour@tremblay.test'], email: 'bonjour@tremblay.test', name: 'Rénovations Tremblay', is_default: true },
      { id: senders['soumissions@tremblay.test'], email: 'soumissions@tremblay.test', name: 'Rénovations Tremblay', is_default: false },
    ]);
  });

  it('answers empty pipelines and senders maps when the blueprint has none', async () => {
    const response = await api.admin('POST', '/accounts', { name: 'Sans pipeline' });
    expect(response.status).toBe(201);
    expect(response.body.pipelines).toEqual({});
    expect(response.body.senders).toEqual({});
    expect(await sql.count('pipeline.pipelines', response.body.account_id)).toBe(0);
  });

  it('makes the first pipeline, the first stage of each pipeline and the first sender the default ones when none is flagged', async () => {
    const response = await api.admin('POST', '/accounts', {
      name: 'Défauts',
      pipelines: [
        { name: 'A', slug: 'a', stages: [{ name: 'A1', slug: 'a1' }, { name: 'A2', slug: 'a2' }] },
        { name: 'B', slug: 'b', stages: [{ name: 'B1', slug: 'b1' }, { name: 'B2', slug: 'b2' }] },
      ],
      senders: [{ email: 'un@defauts.test', name: 'Un' }, { email: 'deux@defauts.test', name: 'Deux' }],
    });
    expect(response.status).toBe(201);
    const accountId = response.body.account_id;
    expect(await sql.query(`SELECT slug FROM pipeline.pipelines WHERE account_id = $1 AND is_default`, [accountId])).toEqual([{ slug: 'a' }]);
    expect(await sql.query(`SELECT slug FROM pipeline.stages WHERE account_id = $1 AND is_default ORDER BY slug`, [accountId])).toEqual([
      { slug: 'a1' },
      { slug: 'b1' },
    ]);
    expect(await sql.query(`SELECT email FROM messaging.senders WHERE account_id = $1 AND is_default`, [accountId])).toEqual([
      { email: 'un@defauts.test' },
    ]);
  });

  it('serves the published pipeline and sender queries from what the blueprint created', async () => {
    const created = await api.provision({ pipelines: [VENTES, RENOS], senders: [{ email: 'a@q.test', name: 'A' }, { email: 'b@q.test', name: 'B', is_default: true }] });
    const accountId = asAccountId(created.account_id);
    const pipelines = created.pipelines!;
    const queries = api.app.get(QueryBus);

    expect((await queries.execute(new ListPipelinesQuery(accountId))).map((p) => p.slug)).toEqual(['ventes', 'renos']);
    expect(await queries.execute(new FindPipelineQuery(accountId, null))).toMatchObject({ id: pipelines.ventes.id, isDefault: true });
    expect(await queries.execute(new FindPipelineQuery(accountId, 'renos'))).toMatchObject({ id: pipelines.renos.id, isDefault: false });
    expect(await queries.execute(new FindPipelineQuery(accountId, 'nope'))).toBeNull();

    expect(await queries.execute(new FindStageQuery(accountId, pipelines.ventes.stages.gagne))).toEqual({
      id: pipelines.ventes.stages.gagne,
      name: 'Gagné',
      slug: 'gagne',
      pipelineId: pipelines.ventes.id,
      pipeline: { id: pipelines.ventes.id, name: 'Ventes', slug: 'ventes', isDefault: true, dashboardOrder: 1 },
      stageOrder: 4,
      isDefault: false,
      isHidden: false,
      isWon: true,
      isLost: false,
      isDisqualification: false,
    });
    expect(await queries.execute(new FindStageQuery(accountId, 'not-a-uuid'))).toBeNull();
    expect((await queries.execute(new FindStageBySlugQuery(accountId, null, null)))?.id).toBe(pipelines.ventes.stages.nouveau);
    expect((await queries.execute(new FindStageBySlugQuery(accountId, 'renos', null)))?.id).toBe(pipelines.renos.stages.devis);
    expect((await queries.execute(new FindStageBySlugQuery(accountId, null, 'perdu')))?.id).toBe(pipelines.ventes.stages.perdu);
    expect(await queries.execute(new FindStageBySlugQuery(accountId, 'renos', 'perdu'))).toBeNull();

    const stages = await queries.execute(new ListStagesQuery(accountId));
    expect(stages.map((stage) => `${stage.pipeline.slug}/${stage.slug}`)).toEqual([
      'ventes/nouveau', 'ventes/soumission', 'ventes/cache', 'ventes/gagne', 'ventes/perdu', 'ventes/disqualifie', 'renos/visite', 'renos/devis',
    ]);
    expect((await queries.execute(new ListStagesQuery(accountId, pipelines.renos.id))).map((stage) => stage.slug)).toEqual(['visite', 'devis']);

    expect(await queries.execute(new GetDefaultSenderQuery(accountId))).toEqual({ id: expect.any(String), email: 'b@q.test', name: 'B', isDefault: true });
    expect((await queries.execute(new ListSendersQuery(accountId))).map((sender) => sender.email)).toEqual(['b@q.test', 'a@q.test']);
  });

  it("never shows another account's pipelines, stages or senders through the published queries", async () => {
    const mine = await api.provision({ pipelines: [VENTES], senders: [{ email: 'moi@iso.test', name: 'Moi' }] });
    const other = await api.provision({ name: 'Autre', pipelines: [RENOS] });
    const queries = api.app.get(QueryBus);
    const otherId = asAccountId(other.account_id);
    expect(await queries.execute(new FindStageQuery(otherId, mine.pipelines!.ventes.stages.nouveau))).toBeNull();
    expect(await queries.execute(new FindPipelineQuery(otherId, 'ventes'))).toBeNull();
    expect((await queries.execute(new ListStagesQuery(otherId))).map((stage) => stage.slug)).toEqual(['visite', 'devis']);
    expect(await queries.execute(new GetDefaultSenderQuery(otherId))).toBeNull();
  });

  describe('one transaction: a refused blueprint leaves no account, key, System, member, pipeline, stage, sender or activity entry', () => {
    const base = {
      name: 'Tout ou rien',
      team_members: [{ email: 'julie@tout.test', can_delete_prospects: true }],
      api_keys: [{ name: 'full', preset: 'full_integration' }],
      senders: [{ email: 'bonjour@tout.test', name: 'Tout' }],
    };

    it.each([
      [
        'a second default pipeline',
        { pipelines: [VENTES, { ...RENOS, is_default: true }] },
        [{ field: 'pipelines[1].is_default', reason: 'invalid_value' }],
      ],
      [
        'a second pipeline reusing a slug',
        { pipelines: [VENTES, { ...RENOS, slug: 'ventes' }] },
        [{ field: 'pipelines[1].slug', reason: 'duplicate' }],
      ],
      [
        'a second pipeline with two stages of one slug',
        { pipelines: [VENTES, { ...RENOS, stages: [{ name: 'X', slug: 'x' }, { name: 'Y', slug: 'x' }] }] },
        [{ field: 'pipelines[1].stages[1].slug', reason: 'duplicate' }],
      ],
      [
        'a second pipeline with two default stages',
        { pipelines: [VENTES, { ...RENOS, stages: [{ name: 'X', slug: 'x', is_default: true }, { name: 'Y', slug: 'y', is_default: true }] }] },
        [{ field: 'pipelines[1].stages[1].is_default', reason: 'invalid_value' }],
      ],
      [
        'a sender given twice (case-insensitively)',
        { pipelines: [VENTES], senders: [{ email: 'a@tout.test', name: 'A' }, { email: 'A@Tout.test', name: 'B' }] },
        [{ field: 'senders[1].email', reason: 'duplicate' }],
      ],
      [
        'two default senders',
        { senders: [{ email: 'a@tout.test', name: 'A', is_default: true }, { email: 'b@tout.test', name: 'B', is_default: true }] },
        [{ field: 'senders[1].is_default', reason: 'invalid_value' }],
      ],
      [
        'a team member given twice',
        { team_members: [{ email: 'julie@tout.test' }, { email: 'JULIE@tout.test' }], pipelines: [VENTES] },
        [{ field: 'team_members[1].email', reason: 'duplicate' }],
      ],
    ])('refuses %s with 400 validation_error after the account rows were written, and rolls all of it back', async (_case, part, details) => {
      const response = await refused({ ...base, ...part });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', type: 'invalid_request_error', details });
      expect(await sql.query(`SELECT id FROM accounts.accounts WHERE name = $1`, ['Tout ou rien'])).toEqual([]);
    });

    it('writes everything when the same blueprint is valid', async () => {
      const response = await api.admin('POST', '/accounts', { ...base, pipelines: [VENTES, RENOS] });
      expect(response.status).toBe(201);
      const accountId = response.body.account_id;
      expect(await sql.count('pipeline.pipelines', accountId)).toBe(2);
      expect(await sql.count('pipeline.stages', accountId)).toBe(8);
      expect(await sql.count('messaging.senders', accountId)).toBe(1);
      expect(await sql.count('accounts.api_keys', accountId)).toBe(1);
    });
  });

  describe('pipeline and stage rules', () => {
    it.each([
      ['an uppercase slug', { ...RENOS, slug: 'Renos' }, 'pipelines[0].slug'],
      ['a slug starting with a dash', { ...RENOS, slug: '-renos' }, 'pipelines[0].slug'],
      ['a slug with a space', { ...RENOS, slug: 'les renos' }, 'pipelines[0].slug'],
      ['a slug with an accent', { ...RENOS, slug: 'rénos' }, 'pipelines[0].slug'],
      ['an empty stage slug', { ...RENOS, stages: [{ name: 'X', slug: '' }] }, 'pipelines[0].stages[0].slug'],
      ['a stage slug of 101 characters', { ...RENOS, stages: [{ name: 'X', slug: 'a'.repeat(101) }] }, 'pipelines[0].stages[0].slug'],
    ])('refuses %s (slugs match ^[a-z0-9][a-z0-9_-]*$) with 400 validation_error', async (_case, pipeline, field) => {
      const response = await refused({ name: 'Slugs', pipelines: [pipeline] });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_error');
      expect(response.body.details).toContainEqual(expect.objectContaining({ field }));
    });

    it('accepts slugs with digits, dashes and underscores', async () => {
      const response = await api.admin('POST', '/accounts', {
        name: 'Slugs',
        pipelines: [{ name: 'P', slug: '2027_ventes-b2b', stages: [{ name: 'S', slug: '0-premier_contact' }] }],
      });
      expect(response.status).toBe(201);
      expect(response.body.pipelines['2027_ventes-b2b'].stages).toEqual({ '0-premier_contact': expect.any(String) });
    });

    it('refuses a won stage that is also lost with validation_error reason exclusive_field', async () => {
      const response = await refused({ name: 'Flags', pipelines: [{ ...RENOS, stages: [{ name: 'X', slug: 'x', is_won: true, is_lost: true }] }] });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'pipelines[0].stages[0].is_won', reason: 'exclusive_field', message: expect.any(String) }]);
    });

    it('refuses a second disqualification stage in one pipeline', async () => {
      const response = await refused({
        name: 'Flags',
        pipelines: [{ ...RENOS, stages: [{ name: 'X', slug: 'x', is_disqualification: true }, { name: 'Y', slug: 'y', is_disqualification: true }] }],
      });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'pipelines[0].stages[1].is_disqualification', reason: 'invalid_value', message: expect.any(String) }]);
    });

    it('refuses a pipeline without stages', async () => {
      const response = await refused({ name: 'Vide', pipelines: [{ ...RENOS, stages: [] }] });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'pipelines[0].stages', reason: 'too_few', message: expect.any(String) }]);
    });

    it('refuses more than 50 stages per account (public-api-v1 › Limits)', async () => {
      const stages = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i}`, slug: `${prefix}${i}` }));
      const response = await refused({
        name: 'Trop',
        pipelines: [
          { name: 'A', slug: 'a', stages: stages('a', 30) },
          { name: 'B', slug: 'b', stages: stages('b', 21) },
        ],
      });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'pipelines', reason: 'too_many', message: expect.any(String) }]);
      const exactly50 = await api.admin('POST', '/accounts', {
        name: 'Cinquante',
        pipelines: [{ name: 'A', slug: 'a', stages: stages('a', 30) }, { name: 'B', slug: 'b', stages: stages('b', 20) }],
      });
      expect(exactly50.status).toBe(201);
    });
  });

  describe('time zone (validation_error reason invalid_timezone)', () => {
    it.each(['Mars/Phobos', 'America/Montréal', '+05:00', ''])('refuses %j', async (timezone) => {
      const response = await refused({ name: 'Fuseau', timezone });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [{ field: 'timezone', reason: 'invalid_timezone' }] });
    });

    it('stores an IANA zone and defaults to America/Montreal', async () => {
      const paris = await api.admin('POST', '/accounts', { name: 'Paris', timezone: 'Europe/Paris' });
      const none = await api.admin('POST', '/accounts', { name: 'Défaut' });
      const rows = await sql.query(`SELECT id, timezone FROM accounts.accounts WHERE id = ANY($1) ORDER BY name`, [[paris.body.account_id, none.body.account_id]]);
      expect(rows).toEqual([
        { id: none.body.account_id, timezone: 'America/Montreal' },
        { id: paris.body.account_id, timezone: 'Europe/Paris' },
      ]);
    });
  });

  describe('bad input: 400 envelope, never 500, nothing written', () => {
    const post = (rawBody: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      api.request({ method: 'POST', path: '/admin/v1/accounts', token: TEST_ADMIN_TOKEN, rawBody, headers });

    it('refuses invalid JSON with 400 invalid_request reason invalid_json', async () => {
      const before = await blueprintCounts(api);
      const response = await post('{"name": "Tremblay", "pipelines": [');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: '', reason: 'invalid_json' }, type: 'invalid_request_error' });
      expect(response.body.request_id).toBe(response.headers['x-request-id']);
      expect(await blueprintCounts(api)).toEqual(before);
    });

    it.each(['[]', '"Tremblay"', '42', 'null'])('refuses the non-object body %s with 400 validation_error', async (rawBody) => {
      const before = await blueprintCounts(api);
      const response = await post(rawBody);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_error');
      expect(await blueprintCounts(api)).toEqual(before);
    });

    it.each(['pipelines', 'systems', 'team_members', 'api_keys', 'calendars', 'events', 'conversations', 'senders', 'custom_fields', 'automations'])(
      'an array inside the array %s answers 400 validation_error invalid_type at [0], never a 500 (issue 12 item 4); nothing written',
      async (member) => {
        const before = await blueprintCounts(api);
        const response = await post(JSON.stringify({ name: 'X', [member]: [[]] }));
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: `${member}[0]`, reason: 'invalid_type' })] });
        expect(await blueprintCounts(api)).toEqual(before);
      },
    );

    it('an array inside events[].editions answers 400 validation_error at its path (issue 12 item 4)', async () => {
      const before = await blueprintCounts(api);
      const event = { slug: 'salon-2027', name: 'Salon', languages: ['fr'], editions: [[]] };
      const response = await post(JSON.stringify({ name: 'X', events: [event] }));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: expect.arrayContaining([expect.objectContaining({ field: 'events[0].editions[0]', reason: 'invalid_type' })]) });
      expect(await blueprintCounts(api)).toEqual(before);
    });

    it('refuses a body without Content-Type with 415', async () => {
      const before = await blueprintCounts(api);
      const response = await post(JSON.stringify({ name: 'X' }), {});
      expect(response.status).toBe(415);
      expect(response.body.code).toBe('unsupported_media_type');
      expect(await blueprintCounts(api)).toEqual(before);
    });

    it.each([
      ['name of the wrong type', { name: 42 }, { field: 'name', reason: 'invalid_type' }],
      ['pipelines not an array', { name: 'X', pipelines: { ventes: {} } }, { field: 'pipelines', reason: 'invalid_type' }],
      ['a pipeline that is not an object', { name: 'X', pipelines: ['ventes'] }, { field: 'pipelines[0]', reason: 'invalid_type' }],
      ['is_default not a boolean', { name: 'X', pipelines: [{ ...RENOS, is_default: 'yes' }] }, { field: 'pipelines[0].is_default', reason: 'invalid_type' }],
      ['a stage flag not a boolean', { name: 'X', pipelines: [{ ...RENOS, stages: [{ name: 'S', slug: 's', is_won: 1 }] }] }, { field: 'pipelines[0].stages[0].is_won', reason: 'invalid_type' }],
      ['a stage without slug', { name: 'X', pipelines: [{ ...RENOS, stages: [{ name: 'S' }] }] }, { field: 'pipelines[0].stages[0].slug', reason: 'required' }],
      ['a pipeline without stages', { name: 'X', pipelines: [{ name: 'P', slug: 'p' }] }, { field: 'pipelines[0].stages', reason: 'required' }],
      ['a sender without email', { name: 'X', senders: [{ name: 'S' }] }, { field: 'senders[0].email', reason: 'required' }],
      ['a sender email that is not one', { name: 'X', senders: [{ email: 'bonjour', name: 'S' }] }, { field: 'senders[0].email', reason: 'invalid_format' }],
      ['timezone of the wrong type', { name: 'X', timezone: 5 }, { field: 'timezone', reason: 'invalid_type' }],
      // The account name keeps the accounts DTO's @Length (reason invalid_value); the new members use MaxLength (too_long).
      ['an oversize name', { name: 'x'.repeat(201) }, { field: 'name' }],
      ['an oversize pipeline name', { name: 'X', pipelines: [{ ...RENOS, name: 'x'.repeat(201) }] }, { field: 'pipelines[0].name', reason: 'too_long' }],
      ['an oversize sender name', { name: 'X', senders: [{ email: 'a@x.test', name: 'x'.repeat(201) }] }, { field: 'senders[0].name', reason: 'too_long' }],
      ['an oversize timezone', { name: 'X', timezone: 'A'.repeat(65) }, { field: 'timezone', reason: 'too_long' }],
      ['an unknown top-level field', { name: 'X', pipeline: [] }, { field: 'pipeline', reason: 'unknown_field' }],
      ['an unknown pipeline field', { name: 'X', pipelines: [{ ...RENOS, color: 'red' }] }, { field: 'pipelines[0].color', reason: 'unknown_field' }],
      ['an unknown stage field', { name: 'X', pipelines: [{ ...RENOS, stages: [{ name: 'S', slug: 's', contact_count: 3 }] }] }, { field: 'pipelines[0].stages[0].contact_count', reason: 'unknown_field' }],
      ['an unknown sender field', { name: 'X', senders: [{ email: 'a@x.test', name: 'S', reply_to: 'b@x.test' }] }, { field: 'senders[0].reply_to', reason: 'unknown_field' }],
    ])('refuses %s with 400 validation_error naming the field', async (_case, body, violation) => {
      const response = await refused(body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', type: 'invalid_request_error' });
      expect(response.body.details).toContainEqual(expect.objectContaining(violation));
    });
  });
});
