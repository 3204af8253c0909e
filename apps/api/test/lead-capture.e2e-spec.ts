import { FixedClock, newId } from '@leadflow/shared-kernel';
import { db } from './support/contacts-fixtures';
import { CAPTURE_RESPONSE_MEMBERS, captureLead, captureWriteCounts, freshPhone, leadsBlueprint } from './support/lead-capture-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/**
 * public-api-v1 › POST /v1/leads/capture (Endpoints › Leads rules 1–8), Lead capture input, response
 * and outcome: what is answered and what is (not) written, on real PostgreSQL and Redis.
 */
describe('lead capture', () => {
  const clock = new FixedClock(new Date('2026-05-14T13:00:00.000Z'));
  let api: TestApi;
  let account: ProvisionedAccount;
  let key: string;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision(leadsBlueprint());
    key = account.api_keys.capture.key;
  });
  afterAll(() => api.close());

  const capture = (body: unknown, headers: Record<string, string> = {}) => captureLead(api, key, body, { headers });
  const ok = async (body: unknown, headers: Record<string, string> = {}): Promise<TestResponse['body']> => {
    const response = await capture(body, headers);
    if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const sql = () => db(api);
  const contactRow = async (id: string) => (await sql().query(`SELECT *, expected_close_date::text AS expected_close_date FROM contacts.contacts WHERE account_id = $1 AND id = $2`, [account.account_id, id]))[0];
  const identitiesOf = (id: string) =>
    sql().query(`SELECT kind, value, is_primary FROM contacts.contact_identities WHERE account_id = $1 AND contact_id = $2 ORDER BY kind, value`, [account.account_id, id]);
  const tagNamesOf = async (id: string) =>
    (
      await sql().query(
        `SELECT t.name FROM contacts.contact_tags ct JOIN contacts.tags t ON t.account_id = ct.account_id AND t.id = ct.tag_id
          WHERE ct.account_id = $1 AND ct.contact_id = $2 ORDER BY t.name`,
        [account.account_id, id],
      )
    ).map((row) => row.name);
  const activityOf = (id: string) => sql().query(`SELECT id, type, actor, data FROM platform.activity_log WHERE account_id = $1 AND contact_id = $2 ORDER BY created_at, id`, [account.account_id, id]);
  const eventsOf = (id: string) =>
    sql().query(`SELECT type, payload FROM platform.outbox WHERE account_id = $1 AND payload->>'contact_id' = $2 ORDER BY sequence`, [account.account_id, id]);
  const capturesOf = (id: string) => sql().count('contacts.lead_captures', 'account_id = $1 AND contact_id = $2', [account.account_id, id]);
  const contactsWith = (email: string) => sql().count('contacts.contacts', 'account_id = $1 AND email = $2', [account.account_id, email]);
  const afterWindow = () => clock.advance(6 * 60_000);
  const stages = () => account.pipelines!;
  const field = (name: string) => account.custom_fields![name] as string;

  describe('outcome created: a new contact', () => {
    it('answers every response member and writes the contact, its identities, tags, activity entry, outbox events and capture in one go', async () => {
      const phone = freshPhone();
      const response = await capture({
        first_name: 'Élise',
        last_name: 'Côté',
        email: 'Elise.Cote@Videotron.CA',
        phone: phone.raw,
        sms_consent: true,
        source_label: 'Webflow – Soumission cuisine',
        notes: 'Cuisine des années 90',
        utm: { source: 'facebook', medium: 'paid_social', campaign: 'cuisine-printemps-2026' },
        tags: ['Cuisine', 'Facebook Ads'],
        custom_fields: { type_projet: 'cuisine', budget: '25 000 $', superficie: 14 },
        qualification_answers: [{ question: 'Propriétaire?', answer: 'Oui' }],
      });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(CAPTURE_RESPONSE_MEMBERS);
      const id = response.body.contact_id;
      expect(response.body).toEqual({
        status: 'created',
        contact_id: expect.any(String),
        contact_was_new: true,
        pipeline: {
          pipeline_id: stages().ventes.id,
          pipeline_slug: 'ventes',
          pipeline_name: 'Ventes',
          stage_id: stages().ventes.stages.nouveau,
          stage_slug: 'nouveau',
          stage_name: 'Nouveau',
          deal_value: null,
          expected_close_date: null,
        },
        assignment_status: 'unassigned',
        ignored_fields: [],
        ignored_fields_truncated: false,
        activity_id: expect.any(String),
        original_created_at: clock.now().toISOString(),
      });
      expect(await contactRow(id)).toMatchObject({
        first_name: 'Élise',
        last_name: 'Côté',
        email: 'elise.cote@videotron.ca',
        phone: phone.e164,
        source: 'api',
        source_label: 'Webflow – Soumission cuisine',
        notes: 'Cuisine des années 90',
        system_id: account.systems.Main,
        pipeline_id: stages().ventes.id,
        stage_id: stages().ventes.stages.nouveau,
        custom_fields: { [field('type_projet')]: 'cuisine', [field('budget')]: '25 000 $', [field('superficie')]: 14 },
        attribution: { source: 'facebook', medium: 'paid_social', campaign: 'cuisine-printemps-2026' },
      });
      expect(await identitiesOf(id)).toEqual([
        { kind: 'email', value: 'elise.cote@videotron.ca', is_primary: true },
        { kind: 'phone', value: phone.e164, is_primary: true },
      ]);
      expect(await tagNamesOf(id)).toEqual(['Cuisine', 'Facebook Ads']);
      const activity = await activityOf(id);
      expect(activity).toEqual([
        {
          id: response.body.activity_id,
          type: 'lead_created',
          actor: { type: 'api_key', id: account.api_keys.capture.id, name: 'capture', via: 'api_key' },
          data: expect.objectContaining({ source_label: 'Webflow – Soumission cuisine', contact_was_new: true, qualification_answers: [{ question: 'Propriétaire?', answer: 'Oui' }] }),
        },
      ]);
      const events = await eventsOf(id);
      expect(events.map((event) => event.type)).toEqual(['contact_created', 'stage_changed', 'lead_created']);
      expect(events[1].payload).toEqual({ contact_id: id, pipeline_id: expect.any(String), from_stage_id: null, to_stage_id: response.body.pipeline.stage_id });
      expect(events[2].payload).toMatchObject({ contact_id: id, contact_was_new: true, phone: phone.e164, sms_consent: true, activity_id: response.body.activity_id });
      expect(await capturesOf(id)).toBe(1);
    });

    it('the captured contact reads back through GET /v1/contacts/{id} (custom fields keyed by definition id)', async () => {
      const body = await ok({ first_name: 'Zoë', phone: freshPhone().raw, sms_consent: 'Yes', custom_fields: { type_projet: 'salle_de_bain' } });
      const read = await api.request({ path: `/v1/contacts/${body.contact_id}`, token: account.api_keys.full.key, query: { expand: 'tags' } });
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ id: body.contact_id, first_name: 'Zoë', source: 'api', custom_fields: { [field('type_projet')]: 'salle_de_bain' } });
    });
  });

  describe('rule 1: resolution by email (case-insensitive), then phone including secondary details', () => {
    it('an uppercase email never creates a second contact', async () => {
      const first = await ok({ email: 'julie.gagnon@videotron.ca', phone: freshPhone().raw, sms_consent: true });
      const second = await ok({ email: 'JULIE.GAGNON@VIDEOTRON.CA', phone: freshPhone().raw, sms_consent: 'OUI' });
      expect(second).toMatchObject({ contact_id: first.contact_id, contact_was_new: false });
      expect(await contactsWith('julie.gagnon@videotron.ca')).toBe(1);
    });

    it('the same phone in another format (dotted, integer, +1) resolves to the same contact', async () => {
      const phone = freshPhone();
      const first = await ok({ first_name: 'Élise', phone: phone.raw, sms_consent: true });
      const digits = phone.e164.slice(2);
      for (const variant of [`${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6)}`, Number(`1${digits}`), `+1 ${digits}`]) {
        expect((await ok({ phone: variant, sms_consent: true })).contact_id).toBe(first.contact_id);
      }
      expect(await sql().count('contacts.contact_identities', `account_id = $1 AND kind = 'phone' AND value = $2`, [account.account_id, phone.e164])).toBe(1);
    });

    it('rule 2: a new phone is kept as a secondary phone, and resolves the contact afterwards', async () => {
      const [main, cell] = [freshPhone(), freshPhone()];
      const first = await ok({ email: 'gaetan.rousseau@cgocable.ca', phone: main.raw, sms_consent: true });
      afterWindow();
      const second = await ok({ email: 'gaetan.rousseau@cgocable.ca', phone: cell.raw, sms_consent: true });
      expect(second.contact_id).toBe(first.contact_id);
      expect(await identitiesOf(first.contact_id)).toEqual([
        { kind: 'email', value: 'gaetan.rousseau@cgocable.ca', is_primary: true },
        { kind: 'phone', value: main.e164, is_primary: true },
        { kind: 'phone', value: cell.e164, is_primary: false },
      ]);
      expect((await contactRow(first.contact_id)).phone).toBe(main.e164);
      expect((await ok({ phone: cell.raw, sms_consent: true })).contact_id).toBe(first.contact_id);
    });

    it('rule 2: email and phone of two different contacts: email wins, nothing is removed from the other', async () => {
      const [hers, his] = [freshPhone(), freshPhone()];
      const helene = await ok({ email: 'helene.levesque@bell.net', phone: hers.raw, sms_consent: true });
      const mathieu = await ok({ email: 'mathieu.leblanc@gmail.com', phone: his.raw, sms_consent: true });
      const mathieuBefore = await contactRow(mathieu.contact_id);
      const result = await ok({ email: 'helene.levesque@bell.net', phone: his.raw, sms_consent: true });
      expect(result.contact_id).toBe(helene.contact_id);
      expect(await contactRow(mathieu.contact_id)).toEqual(mathieuBefore);
      expect(await identitiesOf(mathieu.contact_id)).toEqual([
        { kind: 'email', value: 'mathieu.leblanc@gmail.com', is_primary: true },
        { kind: 'phone', value: his.e164, is_primary: true },
      ]);
      expect(await identitiesOf(helene.contact_id)).toEqual([
        { kind: 'email', value: 'helene.levesque@bell.net', is_primary: true },
        { kind: 'phone', value: hers.e164, is_primary: true },
      ]);
    });

    it('a contact created through POST /v1/contacts is reused, never duplicated, and enriched', async () => {
      const phone = freshPhone();
      const created = await api.request({ method: 'POST', path: '/v1/contacts', token: account.api_keys.full.key, body: { email: 'api.made@example.com', phone: phone.raw } });
      expect(created.status).toBe(201);
      const result = await ok({ email: 'API.MADE@example.com', phone: phone.raw, sms_consent: true, first_name: 'Api' });
      expect(result).toMatchObject({ status: 'created', contact_was_new: false, contact_id: created.body.data.id });
      expect(await contactRow(created.body.data.id)).toMatchObject({ first_name: 'Api', stage_id: stages().ventes.stages.nouveau });
    });

    it('a reused contact enriched and placed in a stage emits lead_updated with the changed fields and stage_changed (webhooks, stage automations)', async () => {
      const phone = freshPhone();
      const created = await api.request({ method: 'POST', path: '/v1/contacts', token: account.api_keys.full.key, body: { email: 'enriched.events@example.com', phone: phone.raw } });
      const id = created.body.data.id as string;
      await ok({ email: 'enriched.events@example.com', phone: phone.raw, sms_consent: true, first_name: 'Églantine' });
      const events = await eventsOf(id);
      expect(events.map((event) => event.type)).toEqual(['contact_created', 'lead_updated', 'stage_changed', 'lead_created']);
      expect(events[1].payload.changes).toEqual({ first_name: { previous: null, current: 'Églantine' } });
      expect(events[1].payload.changes).not.toHaveProperty('updated_at');
      expect(events[2].payload).toEqual({ contact_id: id, pipeline_id: stages().ventes.id, from_stage_id: null, to_stage_id: stages().ventes.stages.nouveau });
    });
  });

  describe('rule 2: enrichment without overwriting filled core fields', () => {
    it('fills empty names, email, address; keeps filled ones; refreshes custom fields (replaced and added)', async () => {
      const phone = freshPhone();
      const first = await ok({
        first_name: 'Gaétan',
        phone: phone.raw,
        sms_consent: true,
        city: 'Laval',
        custom_fields: { budget: '10 000 $', type_projet: 'cuisine' },
        pipeline: { stage_slug: 'gagne', deal_value: 18500 },
      });
      afterWindow();
      const second = await ok({
        first_name: 'Gaetan',
        last_name: 'Rousseau',
        email: 'g.rousseau@cgocable.ca',
        phone: phone.raw,
        sms_consent: 'oui',
        street: '118, rue des Érables',
        city: 'Terrebonne',
        province: 'QC',
        postal_code: 'J6W 2K1',
        country: 'CA',
        custom_fields: { budget: '40 000 $', superficie: 900 },
        pipeline: { pipeline_slug: 'renovation', stage_slug: 'visite', deal_value: 1 },
      });
      expect(second).toMatchObject({ status: 'created', contact_was_new: false, contact_id: first.contact_id });
      expect(second.ignored_fields).toEqual([
        { field: 'pipeline.pipeline_slug', reason: 'existing_contact_kept' },
        { field: 'pipeline.stage_slug', reason: 'existing_contact_kept' },
        { field: 'pipeline.deal_value', reason: 'existing_contact_kept' },
      ]);
      // Rule 3: pipeline describes the resolved request, not the persisted state.
      expect(second.pipeline).toMatchObject({ pipeline_slug: 'renovation', stage_slug: 'visite', deal_value: 1 });
      expect(await contactRow(first.contact_id)).toMatchObject({
        first_name: 'Gaétan',
        last_name: 'Rousseau',
        email: 'g.rousseau@cgocable.ca',
        city: 'Laval',
        street: '118, rue des Érables',
        province: 'QC',
        postal_code: 'J6W 2K1',
        country: 'CA',
        stage_id: stages().ventes.stages.gagne,
        deal_value_cents: '1850000',
        custom_fields: { [field('budget')]: '40 000 $', [field('type_projet')]: 'cuisine', [field('superficie')]: 900 },
      });
      expect(await identitiesOf(first.contact_id)).toContainEqual({ kind: 'email', value: 'g.rousseau@cgocable.ca', is_primary: true });
    });

    it('custom_fields by definition name; a select takes the option value (a label is invalid_value); an undefined key is custom_field_not_defined', async () => {
      const body = await ok({
        phone: freshPhone().raw,
        sms_consent: true,
        custom_fields: { type_projet: 'Cuisine', budget: '35 000 $', couleur_armoires: 'Blanc mat', [field('superficie')]: 3 },
      });
      expect(body.ignored_fields).toEqual([
        { field: 'custom_fields.type_projet', reason: 'invalid_value' },
        { field: 'custom_fields.couleur_armoires', reason: 'custom_field_not_defined' },
        { field: `custom_fields.${field('superficie')}`, reason: 'custom_field_not_defined' },
      ]);
      expect((await contactRow(body.contact_id)).custom_fields).toEqual({ [field('budget')]: '35 000 $' });
    });

    it('rule 3: an existing contact keeps its sales rep (existing_contact_kept) and assignment_status describes the request', async () => {
      const phone = freshPhone();
      const first = await ok({ phone: phone.raw, sms_consent: true, pipeline: { stage_slug: 'perdu', assigned_sales_rep_email: 'julie@tremblay.test' } });
      expect(first.assignment_status).toBe('assigned');
      expect((await contactRow(first.contact_id)).sales_rep_id).toBe(account.team_members['julie@tremblay.test']);
      afterWindow();
      const second = await ok({ phone: phone.raw, sms_consent: true, pipeline: { assigned_sales_rep_email: 'JULIE@tremblay.test', expected_close_date: '2026-12-01' } });
      expect(second).toMatchObject({ status: 'created', assignment_status: 'assigned', ignored_fields: [{ field: 'pipeline.assigned_sales_rep_email', reason: 'existing_contact_kept' }] });
      expect((await contactRow(first.contact_id)).expected_close_date).toBe('2026-12-01');
    });
  });

  describe('Lead capture outcome', () => {
    it('idempotent_replay: any submission for the same contact within 5 minutes, with another key or none; custom fields enriched, no activity, tag, capture or event', async () => {
      const phone = freshPhone();
      const first = await ok({ email: 'zoe.obrien@outlook.com', phone: phone.raw, sms_consent: true, tags: ['Bathroom'], custom_fields: { budget: '15k' } });
      clock.advance(4 * 60_000 + 59_000);
      const replay = await ok(
        { email: 'Zoe.OBrien@outlook.com', phone: phone.e164, sms_consent: 'y', tags: ['Facebook Ads'], custom_fields: { budget: '20k' } },
        { 'Idempotency-Key': `zap_${newId()}` },
      );
      expect(replay).toEqual({
        ...first,
        status: 'idempotent_replay',
        contact_was_new: false,
        ignored_fields: [{ field: '', reason: 'submission_not_recorded' }],
      });
      expect(replay.activity_id).toBe(first.activity_id);
      expect(replay.original_created_at).toBe(first.original_created_at);
      expect((await contactRow(first.contact_id)).custom_fields).toEqual({ [field('budget')]: '20k' });
      expect(await tagNamesOf(first.contact_id)).toEqual(['Bathroom']);
      expect(await activityOf(first.contact_id)).toHaveLength(1);
      expect((await eventsOf(first.contact_id)).filter((event) => event.type === 'lead_created')).toHaveLength(1);
      const updates = (await eventsOf(first.contact_id)).filter((event) => event.type === 'lead_updated');
      expect(updates).toHaveLength(1); // the custom field refresh is a contact update; no activity entry for it
      expect(Object.keys(updates[0].payload.changes)).toEqual(['custom_fields']);
      expect(await capturesOf(first.contact_id)).toBe(1);
      expect(await sql().count('contacts.tags', `account_id = $1 AND name = 'Facebook Ads'`, [account.account_id])).toBe(1); // created by the first test only
    });

    it('existing_pipeline_contact: an open stage after the window; nothing recorded, activity_id null', async () => {
      const phone = freshPhone();
      const first = await ok({ first_name: 'Élise', phone: phone.raw, sms_consent: true });
      clock.advance(5 * 60_000);
      const before = await captureWriteCounts(api, account);
      const later = await ok({ first_name: 'Élise', phone: phone.raw, sms_consent: true, tags: ['Nouveau tag'] });
      expect(later).toMatchObject({
        status: 'existing_pipeline_contact',
        contact_id: first.contact_id,
        contact_was_new: false,
        activity_id: null,
        ignored_fields: [{ field: '', reason: 'submission_not_recorded' }],
        original_created_at: first.original_created_at,
      });
      expect(await captureWriteCounts(api, account)).toEqual(before);
    });

    it('created, not new: an existing contact whose stage is won or lost, after the window', async () => {
      const phone = freshPhone();
      const first = await ok({ phone: phone.raw, sms_consent: true, pipeline: { stage_slug: 'gagne' } });
      afterWindow();
      const again = await ok({ phone: phone.raw, sms_consent: true, tags: ['Deuxième projet'] });
      expect(again).toMatchObject({ status: 'created', contact_was_new: false, contact_id: first.contact_id, original_created_at: clock.now().toISOString() });
      expect(again.activity_id).not.toBe(first.activity_id);
      expect(await activityOf(first.contact_id)).toHaveLength(2);
      expect(await capturesOf(first.contact_id)).toBe(2);
      expect(await tagNamesOf(first.contact_id)).toEqual(['Deuxième projet']);
      expect((await eventsOf(first.contact_id)).map((event) => event.type)).toEqual(['contact_created', 'stage_changed', 'lead_created', 'lead_created']);
    });

    it('created, not new: an archived contact is not in an open stage', async () => {
      const phone = freshPhone();
      const first = await ok({ phone: phone.raw, sms_consent: true });
      const archived = await api.admin('POST', `/accounts/${account.account_id}/contacts/${first.contact_id}/archive`);
      expect(archived.status).toBe(200);
      afterWindow();
      expect(await ok({ phone: phone.raw, sms_consent: true })).toMatchObject({ status: 'created', contact_was_new: false, contact_id: first.contact_id });
    });
  });

  describe('rule 5: the pipeline block', () => {
    it('nested: pipeline, stage, deal value, expected close date and an active sales rep', async () => {
      const body = await ok({
        phone: freshPhone().raw,
        sms_consent: true,
        pipeline: { pipeline_slug: 'renovation', stage_slug: 'visite', deal_value: 45000.5, expected_close_date: '2026-09-30', assigned_sales_rep_email: 'julie@tremblay.test' },
      });
      expect(body).toMatchObject({
        assignment_status: 'assigned',
        ignored_fields: [],
        pipeline: { pipeline_id: stages().renovation.id, stage_id: stages().renovation.stages.visite, deal_value: 45000.5, expected_close_date: '2026-09-30' },
      });
      expect(await contactRow(body.contact_id)).toMatchObject({
        pipeline_id: stages().renovation.id,
        stage_id: stages().renovation.stages.visite,
        deal_value_cents: '4500050',
        expected_close_date: '2026-09-30',
        sales_rep_id: account.team_members['julie@tremblay.test'],
      });
    });

    it('flat keys pipeline.pipeline_slug and pipeline.stage_slug', async () => {
      const body = await ok({ phone: freshPhone().raw, sms_consent: true, 'pipeline.pipeline_slug': 'renovation', 'pipeline.stage_slug': 'premier-contact' });
      expect(body.ignored_fields).toEqual([]);
      expect((await contactRow(body.contact_id)).stage_id).toBe(stages().renovation.stages['premier-contact']);
    });

    it('nested and flat together: the nested block wins, the flat copies are duplicate_field', async () => {
      const body = await ok({
        phone: freshPhone().raw,
        sms_consent: true,
        pipeline: { pipeline_slug: 'renovation', stage_slug: 'premier-contact' },
        'pipeline.pipeline_slug': 'ventes',
        'pipeline.stage_slug': 'soumission',
      });
      expect(body.ignored_fields).toEqual([
        { field: 'pipeline.pipeline_slug', reason: 'duplicate_field' },
        { field: 'pipeline.stage_slug', reason: 'duplicate_field' },
      ]);
      expect((await contactRow(body.contact_id)).stage_id).toBe(stages().renovation.stages['premier-contact']);
    });

    it('without pipeline_slug the stage is looked up in the default pipeline; without a block, its default stage', async () => {
      const withStage = await ok({ phone: freshPhone().raw, sms_consent: true, pipeline: { stage_slug: 'soumission' } });
      expect((await contactRow(withStage.contact_id)).stage_id).toBe(stages().ventes.stages.soumission);
      const withPipeline = await ok({ phone: freshPhone().raw, sms_consent: true, pipeline: { pipeline_slug: 'renovation' } });
      expect((await contactRow(withPipeline.contact_id)).stage_id).toBe(stages().renovation.stages['premier-contact']);
    });

    it.each([
      [{ pipeline_slug: 'commercial', stage_slug: 'appel-offres' }, 'pipeline_not_found', 'pipeline.pipeline_slug'],
      [{ stage_slug: 'visite' }, 'stage_not_found', 'pipeline.stage_slug'],
      [{ pipeline_slug: 'renovation', stage_slug: 'soumission' }, 'stage_not_found', 'pipeline.stage_slug'],
    ])('%p: 422 %s in the simplified body, nothing written', async (pipeline, code, fieldName) => {
      const before = await captureWriteCounts(api, account);
      const response = await capture({ phone: freshPhone().raw, sms_consent: true, pipeline });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ code, message: expect.any(String), details: [{ field: fieldName, reason: 'not_found' }], request_id: response.headers['x-request-id'] });
      expect(await captureWriteCounts(api, account)).toEqual(before);
    });

    it('an unknown (or inactive, or not sales rep) assigned_sales_rep_email is ignored with sales_rep_not_found; the lead is captured', async () => {
      const body = await ok({ phone: freshPhone().raw, sms_consent: true, pipeline: { assigned_sales_rep_email: 'marc@tremblay.test', deal_value: 9500 } });
      expect(body).toMatchObject({
        status: 'created',
        assignment_status: 'sales_rep_not_found',
        ignored_fields: [{ field: 'pipeline.assigned_sales_rep_email', reason: 'sales_rep_not_found' }],
      });
      expect(await contactRow(body.contact_id)).toMatchObject({ sales_rep_id: null, deal_value_cents: '950000' });
    });

    it('pipeline.id is not a member of the block: unknown_field', async () => {
      const body = await ok({ phone: freshPhone().raw, sms_consent: true, pipeline: { id: stages().ventes.id, stage_slug: 'nouveau' } });
      expect(body.ignored_fields).toEqual([{ field: 'pipeline.id', reason: 'unknown_field' }]);
    });
  });

  describe('tags', () => {
    it('created on the fly, an existing tag reused; Campagne : names ignored with reserved_tag and never created', async () => {
      const existing = await api.request({ method: 'POST', path: '/v1/tags', token: account.api_keys.full.key, body: { name: 'Référence client', color: '#112233' } });
      expect(existing.status).toBe(201);
      const body = await ok({ phone: freshPhone().raw, sms_consent: true, tags: ['Salle de bain', 'Campagne : Été 2026', 'Référence client', 'campagne:été 2026'] });
      expect(body.ignored_fields).toEqual([
        { field: 'tags[1]', reason: 'reserved_tag' },
        { field: 'tags[3]', reason: 'reserved_tag' },
      ]);
      expect(await tagNamesOf(body.contact_id)).toEqual(['Référence client', 'Salle de bain']);
      expect(await sql().count('contacts.tags', `account_id = $1 AND name = 'Référence client'`, [account.account_id])).toBe(1);
      expect(await sql().count('contacts.tags', `account_id = $1 AND name ILIKE 'campagne%'`, [account.account_id])).toBe(0);
    });
  });

  describe('first-touch attribution', () => {
    it('a gclid without utm.source is google / cpc with the gclid; meta.ads_consent false drops the gclid', async () => {
      const google = await ok({ phone: freshPhone().raw, sms_consent: true, gclid: 'EAIaIQob' });
      expect((await contactRow(google.contact_id)).attribution).toEqual({ source: 'google', medium: 'cpc', gclid: 'EAIaIQob' });
      const refused = await ok({ phone: freshPhone().raw, sms_consent: true, gclid: 'Cj0KCQjw', meta: { ads_consent: false } });
      expect((await contactRow(refused.contact_id)).attribution).toEqual({ source: 'google', medium: 'cpc' });
      const withUtm = await ok({ phone: freshPhone().raw, sms_consent: true, gclid: 'Cj0KCQjw', utm: { source: 'google', medium: 'cpc', campaign: 'x' }, meta: { ads_consent: false } });
      expect((await contactRow(withUtm.contact_id)).attribution).toEqual({ source: 'google', medium: 'cpc', campaign: 'x' });
    });

    it('attribution already set is kept (first touch)', async () => {
      const phone = freshPhone();
      const first = await ok({ phone: phone.raw, sms_consent: true, utm: { source: 'facebook' }, pipeline: { stage_slug: 'perdu' } });
      afterWindow();
      await ok({ phone: phone.raw, sms_consent: true, gclid: 'later', utm: { source: 'google' } });
      expect((await contactRow(first.contact_id)).attribution).toEqual({ source: 'facebook' });
    });
  });

  describe('rule 4: ignored_fields', () => {
    it('unknown_field at the root, in customData, in utm and in pipeline; hand-mapped fields before connector-added ones', async () => {
      const body = await ok({
        customData: { sms_consent: 'oui', form_page: '/soumission' },
        form_name: 'Accueil',
        phone: freshPhone().raw,
        utm: { utm_source: 'facebook', source: 'facebook' },
        pipeline: { id: 'x' },
        submitted_at: '2026-05-14T13:22:05-04:00',
      });
      expect(body.ignored_fields).toEqual([
        { field: 'form_name', reason: 'unknown_field' },
        { field: 'utm.utm_source', reason: 'unknown_field' },
        { field: 'pipeline.id', reason: 'unknown_field' },
        { field: 'submitted_at', reason: 'unknown_field' },
        { field: 'customData.form_page', reason: 'unknown_field' },
      ]);
    });

    it('is capped at 50 entries with ignored_fields_truncated; the lead is captured', async () => {
      const extra = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`extra_${String(index).padStart(2, '0')}`, index]));
      const connector = Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`c${index}`, index]));
      const body = await ok({ customData: connector, phone: freshPhone().raw, sms_consent: true, ...extra });
      expect(body.ignored_fields).toHaveLength(50);
      expect(body.ignored_fields_truncated).toBe(true);
      expect(body.ignored_fields[0]).toEqual({ field: 'extra_00', reason: 'unknown_field' });
      expect(body.ignored_fields.some((entry: { field: string }) => entry.field.startsWith('customData.'))).toBe(false);
      expect(body.status).toBe('created');
    });

    it('is always present, empty when everything was applied', async () => {
      expect(await ok({ phone: freshPhone().raw, sms_consent: true })).toMatchObject({ ignored_fields: [], ignored_fields_truncated: false });
    });
  });

  describe('rule 6: system_id', () => {
    it('an inactive System sends the lead to the main System with system_not_active', async () => {
      const body = await ok({ phone: freshPhone().raw, sms_consent: true, system_id: account.systems.Laval });
      expect(body.ignored_fields).toEqual([{ field: 'system_id', reason: 'system_not_active' }]);
      expect((await contactRow(body.contact_id)).system_id).toBe(account.systems.Main);
    });

    it('the main System given explicitly: nothing ignored', async () => {
      const body = await ok({ phone: freshPhone().raw, sms_consent: true, system_id: account.systems.Main.toUpperCase() });
      expect(body.ignored_fields).toEqual([]);
      expect((await contactRow(body.contact_id)).system_id).toBe(account.systems.Main);
    });

    it.each([newId(), 'main', 42])('system_id %p unknown for the account: 422 system_not_found in the standard envelope, no contact', async (system_id) => {
      const before = await captureWriteCounts(api, account);
      const response = await capture({ phone: freshPhone().raw, sms_consent: true, system_id });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        code: 'system_not_found',
        message: expect.any(String),
        details: { field: 'system_id' },
        type: 'unprocessable_error',
        doc_url: 'http://127.0.0.1:3000/docs/errors#system_not_found',
        request_id: response.headers['x-request-id'],
      });
      expect(await captureWriteCounts(api, account)).toEqual(before);
    });
  });

  describe('tenant isolation', () => {
    it('another account\'s system_id is system_not_found; the same email in two accounts gives two contacts', async () => {
      const other = await api.provision(leadsBlueprint({ name: 'Autre compte' }));
      const refused = await captureLead(api, other.api_keys.capture.key, { phone: freshPhone().raw, sms_consent: true, system_id: account.systems.Main });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('system_not_found');
      const phone = freshPhone();
      const mine = await ok({ email: 'shared@example.com', phone: phone.raw, sms_consent: true });
      const theirs = await captureLead(api, other.api_keys.capture.key, { email: 'shared@example.com', phone: phone.raw, sms_consent: true });
      expect(theirs.status).toBe(200);
      expect(theirs.body).toMatchObject({ status: 'created', contact_was_new: true });
      expect(theirs.body.contact_id).not.toBe(mine.contact_id);
      expect(await sql().count('contacts.contacts', `email = 'shared@example.com'`)).toBe(2);
      const read = await api.request({ path: `/v1/contacts/${theirs.body.contact_id}`, token: account.api_keys.full.key });
      expect(read.status).toBe(404);
    });
  });

  describe('rule 8: Idempotency-Key', () => {
    it('same key and payload: the original response with status idempotent_replay, nothing written again', async () => {
      const body = { first_name: 'Élise', phone: freshPhone().raw, sms_consent: true, tags: ['Cuisine'] };
      const headers = { 'Idempotency-Key': `webflow-sub-${newId().slice(-8)}` };
      const first = await capture(body, headers);
      expect(first.status).toBe(200);
      const before = await captureWriteCounts(api, account);
      afterWindow(); // the key outlives the 5 minute window (stored 24 hours)
      const again = await capture({ sms_consent: true, tags: ['Cuisine'], phone: body.phone, first_name: 'Élise' }, headers);
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual({
        ...first.body,
        status: 'idempotent_replay',
        ignored_fields: [{ field: '', reason: 'submission_not_recorded' }],
      });
      expect(await captureWriteCounts(api, account)).toEqual(before);
    });

    it('same key with another payload: 409 idempotency_conflict (standard envelope), nothing written', async () => {
      const headers = { 'Idempotency-Key': `make-${newId().slice(-8)}` };
      const phone = freshPhone().raw;
      expect((await capture({ phone, sms_consent: true, notes: 'a' }, headers)).status).toBe(200);
      const before = await captureWriteCounts(api, account);
      const conflict = await capture({ phone, sms_consent: true, notes: 'b' }, headers);
      expect(conflict.status).toBe(409);
      expect(conflict.body).toMatchObject({ code: 'idempotency_conflict', details: { reason: 'payload_mismatch' }, type: 'conflict_error', doc_url: expect.any(String) });
      expect(await captureWriteCounts(api, account)).toEqual(before);
    });

    it('a refused capture does not store the key: it stays usable', async () => {
      const headers = { 'Idempotency-Key': `retry-${newId().slice(-8)}` };
      const phone = freshPhone().raw;
      expect((await capture({ phone, sms_consent: 'no' }, headers)).status).toBe(422);
      expect((await capture({ phone, sms_consent: 'yes' }, headers)).status).toBe(200);
    });

    it('an invalid key gives 400 invalid_request with field Idempotency-Key', async () => {
      const response = await capture({ phone: freshPhone().raw, sms_consent: true }, { 'Idempotency-Key': 'not valid!' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: 'Idempotency-Key' } });
    });
  });
});
