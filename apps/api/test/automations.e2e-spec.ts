import { CommandBus } from '@nestjs/cqrs';
import { newId } from '@leadflow/shared-kernel';
import { RedisConnection, UsageRecorder } from '@leadflow/shared-platform';
import { AggregateUsageCommand } from '@leadflow/usage-contracts';
import { createContact, db, envelope, expectStatus } from './support/contacts-fixtures';
import { lifecycle } from './support/pipeline-fixtures';
import { archiveAutomation, automationsBlueprint, executionRows, handOffs, trigger, triggered } from './support/automations-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * public-api-v1 › Endpoints › Automations and Limits › Trigger throttle; operator-api › blueprint
 * member `automations`. Every rule is named in its test; refusals write nothing.
 */
describe('automations: blueprint, list, history, manual trigger', () => {
  let api: TestApi;
  let mine: ProvisionedAccount;
  let theirs: ProvisionedAccount;
  let key: string;
  let ids: Record<string, string>;
  let contactId: string;
  let theirContactId: string;

  const executionCount = async () => (await db(api).count('automations.executions'));

  beforeAll(async () => {
    api = await TestApi.start();
    mine = await api.provision(automationsBlueprint());
    theirs = await api.provision(automationsBlueprint());
    key = mine.api_keys.full.key;
    ids = mine.automations as Record<string, string>;
    await archiveAutomation(api, ids['Archivée']);
    contactId = (await createContact(api, key, { email: 'nadia@example.com', first_name: 'Nadia' })).id;
    theirContactId = (await createContact(api, theirs.api_keys.full.key, { email: 'autre@example.com' })).id;
  });
  afterAll(() => api.close());

  let contactSequence = 0;
  const freshContact = async () => (await createContact(api, key, { email: `c${++contactSequence}@example.com`, first_name: 'C' })).id as string;

  describe('blueprint member automations', () => {
    it('answers automations { <name>: <id> } and stores triggers and steps with stage slugs resolved to ids', async () => {
      expect(Object.keys(ids)).toEqual(expect.arrayContaining(['Bienvenue', 'Manuelle', 'Étape']));
      const [row] = await db(api).query(`SELECT * FROM automations.automations WHERE id = $1`, [ids['Étape']]);
      const stages = (mine.pipelines as any).ventes.stages;
      expect(row).toMatchObject({
        account_id: mine.account_id,
        name: 'Étape',
        is_active: true,
        is_published: true,
        allow_concurrent_runs: false,
        trigger_type: 'stage_changed',
        trigger: { type: 'stage_changed', stage_id: stages.gagne, pipeline_id: (mine.pipelines as any).ventes.id },
      });
      expect(row.steps[0]).toEqual({ type: 'move_to_stage', stage_id: stages.nouveau, pipeline_id: (mine.pipelines as any).ventes.id, accepts_disqualified_leads: false });
    });

    it.each([
      ['an unknown step type', [{ type: 'send_sms' }], 'automations[0].steps[0].type', 'invalid_value'],
      ['send_email without subject', [{ type: 'send_email', body: 'x' }], 'automations[0].steps[0].subject', 'required'],
      ['add_tag without tag', [{ type: 'add_tag' }], 'automations[0].steps[0].tag', 'required'],
      ['a webhook event outside the catalog', [{ type: 'webhook', event: 'automation_started' }], 'automations[0].steps[0].event', 'unknown_event_type'],
      ['wait without positive seconds', [{ type: 'wait', seconds: 0 }], 'automations[0].steps[0].seconds', 'invalid_value'],
      ['move_to_stage to an unknown stage slug', [{ type: 'move_to_stage', pipeline_slug: 'ventes', stage_slug: 'nulle-part' }], 'automations[0].steps[0].stage_slug', 'not_found_in_tenant'],
      ['move_to_stage without a stage', [{ type: 'move_to_stage' }], 'automations[0].steps[0].stage_id', 'required'],
      ['a field of another step type', [{ type: 'add_tag', tag: 'a', seconds: 3 }], 'automations[0].steps[0].seconds', 'invalid_value'],
      ['an unknown field', [{ type: 'add_tag', tag: 'a', colour: 'red' }], 'automations[0].steps[0].colour', 'unknown_field'],
    ])('refuses %s: 400 validation_error with the path, nothing provisioned', async (_, steps, field, reason) => {
      const accounts = await db(api).count('automations.automations');
      const response = await api.admin('POST', '/accounts', { ...automationsBlueprint({ automations: [{ name: 'A', trigger: { type: 'manual' }, steps }] }), name: 'Refusé' });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_error');
      expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, reason })]));
      expect(await db(api).count('automations.automations')).toBe(accounts);
    });

    it.each([
      ['a custom_event trigger without event', { type: 'custom_event' }, 'automations[0].trigger.event', 'required'],
      ['an unknown trigger type', { type: 'webhook_received' }, 'automations[0].trigger.type', 'invalid_value'],
      ['a stage_changed filter on an unknown pipeline', { type: 'stage_changed', pipeline_slug: 'aucun' }, 'automations[0].trigger.pipeline_slug', 'not_found_in_tenant'],
    ])('refuses %s (400 validation_error with the path)', async (_, triggerBody, field, reason) => {
      const response = await api.admin('POST', '/accounts', { ...automationsBlueprint({ automations: [{ name: 'A', trigger: triggerBody, steps: [] }] }), name: 'Refusé' });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, reason })]));
    });

    it('refuses two automations with one name (duplicate)', async () => {
      const response = await api.admin('POST', '/accounts', { ...automationsBlueprint({ automations: [{ name: 'A' }, { name: 'A' }] }), name: 'Refusé' });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ field: 'automations[1].name', reason: 'duplicate' })]);
    });
  });

  describe('GET /v1/automations', () => {
    it('lists the account automations, archived excluded, created_at DESC, id DESC, with the pagination object', async () => {
      const response = expectStatus(await api.request({ path: '/v1/automations', token: mine.api_keys.reader.key }), 200);
      const names = response.body.data.map((automation: any) => automation.name);
      expect(names).not.toContain('Archivée');
      expect(names).toHaveLength(7);
      expect(response.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 20, total_count: 7 });
      const sorted = [...response.body.data].sort((a: any, b: any) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
      expect(response.body.data.map((a: any) => a.id)).toEqual(sorted.map((a: any) => a.id));
      const bienvenue = response.body.data.find((a: any) => a.name === 'Bienvenue');
      expect(bienvenue).toEqual({
        id: ids.Bienvenue,
        name: 'Bienvenue',
        is_active: true,
        is_published: true,
        allow_concurrent_runs: false,
        trigger: { type: 'custom_event', event: 'inscription' },
        steps_count: 2,
        archived_at: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updated_at: expect.stringMatching(/Z$/),
      });
      expect(response.body.data.find((a: any) => a.name === 'Sans déclencheur').trigger).toBeNull();
      const theirIds = Object.values(theirs.automations as Record<string, string>);
      expect(response.body.data.some((a: any) => theirIds.includes(a.id))).toBe(false);
    });

    it('status=active keeps is_active true, status=inactive keeps false', async () => {
      const active = expectStatus(await api.request({ path: '/v1/automations', token: key, query: { status: 'active' } }), 200).body;
      const inactive = expectStatus(await api.request({ path: '/v1/automations', token: key, query: { status: 'inactive' } }), 200).body;
      expect(active.data.every((a: any) => a.is_active)).toBe(true);
      expect(inactive.data.map((a: any) => a.name)).toEqual(['Inactive']);
      expect(active.pagination.total_count + inactive.pagination.total_count).toBe(7);
    });

    it('any other status gives 400 validation_error (field status, reason invalid_value)', async () => {
      const response = await api.request({ path: '/v1/automations', token: key, query: { status: 'archived' } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [{ field: 'status', reason: 'invalid_value' }] });
    });

    it('walks pages with next_cursor; a bad limit or cursor gives 400 invalid_request', async () => {
      const first = expectStatus(await api.request({ path: '/v1/automations', token: key, query: { limit: '4' } }), 200).body;
      expect(first.pagination).toMatchObject({ has_more: true, limit: 4, total_count: 7 });
      const second = expectStatus(await api.request({ path: '/v1/automations', token: key, query: { limit: '4', cursor: first.pagination.next_cursor } }), 200).body;
      expect(second.data).toHaveLength(3);
      expect(second.pagination.has_more).toBe(false);
      expect(new Set([...first.data, ...second.data].map((a: any) => a.id)).size).toBe(7);
      expect((await api.request({ path: '/v1/automations', token: key, query: { limit: '0' } })).body).toMatchObject({ code: 'invalid_request', details: { field: 'limit' } });
      expect((await api.request({ path: '/v1/automations', token: key, query: { cursor: '!!' } })).body).toMatchObject({ code: 'invalid_request', details: { field: 'cursor' } });
    });
  });

  describe('scopes and plan module', () => {
    const calls = () => [
      ['GET /v1/automations', (token: string) => api.request({ path: '/v1/automations', token }), 'automations:read'],
      ['GET /v1/automations/{id}/history', (token: string) => api.request({ path: `/v1/automations/${ids.Manuelle}/history`, token }), 'automations:read'],
      ['POST /v1/automations/{id}/trigger', (token: string) => trigger(api, token, ids.Manuelle, { contact_id: contactId }), 'automations:trigger'],
    ] as const;

    it('each route needs its scope (403 insufficient_scope with details.required_scope), nothing written', async () => {
      const before = await executionCount();
      for (const [, call, scope] of calls()) {
        const other = scope === 'automations:read' ? mine.api_keys.trigger.key : mine.api_keys.reader.key;
        for (const token of [other, mine.api_keys.contacts.key]) {
          const response = await call(token);
          expect(response.status).toBe(403);
          expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: scope } });
        }
      }
      expect(await executionCount()).toBe(before);
    });

    it('automations removed from the plan: 403 feature_not_available (details.feature automations) on every route', async () => {
      const account = await api.provision(automationsBlueprint());
      const automationId = (account.automations as Record<string, string>).Manuelle;
      const contact = (await createContact(api, account.api_keys.full.key, { email: 'plan@example.com' })).id;
      expectStatus(await api.admin('PATCH', `/accounts/${account.account_id}`, { features: ['public_api', 'quotes'] }), 200);
      const token = account.api_keys.full.key;
      const before = await executionCount();
      for (const response of [
        await api.request({ path: '/v1/automations', token }),
        await api.request({ path: `/v1/automations/${automationId}/history`, token }),
        await trigger(api, token, automationId, { contact_id: contact }),
      ]) {
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ code: 'feature_not_available', details: { feature: 'automations' } });
      }
      expect(await executionCount()).toBe(before);
    });
  });

  describe('GET /v1/automations/{id}/history', () => {
    it('lists executions created_at DESC, id DESC with id, status, trigger_type, retry_count, contact_id, created_at', async () => {
      const automationId = ids['Concurrente'];
      const contact = await freshContact();
      const made = [];
      for (let index = 0; index < 3; index++) {
        made.push(await triggered(api, key, automationId, { contact_id: contact, event_data: { n: index } }));
        api.clock.advance(1000);
      }
      const response = expectStatus(await api.request({ path: `/v1/automations/${automationId}/history`, token: mine.api_keys.reader.key, query: { limit: '2' } }), 200).body;
      expect(response.data.map((e: any) => e.id)).toEqual([made[2].id, made[1].id]);
      expect(response.data[0]).toMatchObject({ id: made[2].id, status: 'pending', trigger_type: 'manual_api', retry_count: 0, contact_id: contact, automation_id: automationId, created_at: made[2].created_at });
      expect(response.pagination).toMatchObject({ has_more: true, total_count: 3, limit: 2 });
      const next = expectStatus(await api.request({ path: `/v1/automations/${automationId}/history`, token: key, query: { cursor: response.pagination.next_cursor } }), 200).body;
      expect(next.data.map((e: any) => e.id)).toEqual([made[0].id]);
    });

    it('404 not_found for another account’s, an archived, an unknown and a non-UUID automation (same envelope)', async () => {
      const theirId = (theirs.automations as Record<string, string>).Manuelle;
      const missing = await api.request({ path: `/v1/automations/${newId()}/history`, token: key });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('not_found');
      for (const id of [theirId, ids['Archivée'], 'pas-un-uuid']) {
        expect(envelope(await api.request({ path: `/v1/automations/${id}/history`, token: key }))).toEqual(envelope(missing));
      }
    });
  });

  describe('POST /v1/automations/{id}/trigger', () => {
    it('creates a pending execution with trigger_type manual_api: 201 { data: { id, status, trigger_type, retry_count, created_at } }, handed to the engine through the outbox', async () => {
      const contact = await freshContact();
      const response = expectStatus(await trigger(api, mine.api_keys.trigger.key, ids.Manuelle, { contact_id: contact, event_data: { source: 'crm' } }), 201);
      expect(response.body.data).toEqual({
        id: expect.any(String),
        automation_id: ids.Manuelle,
        contact_id: contact,
        status: 'pending',
        trigger_type: 'manual_api',
        retry_count: 0,
        created_at: api.clock.now().toISOString(),
      });
      const [row] = await db(api).query(`SELECT * FROM automations.executions WHERE id = $1`, [response.body.data.id]);
      expect(row).toMatchObject({ status: 'pending', trigger_type: 'manual_api', contact_id: contact, event_data: { source: 'crm' }, step_index: 0, retry_count: 0 });
      expect(await handOffs(api, response.body.data.id)).toHaveLength(1);
    });

    it('404 not_found for an automation of another account, archived, unknown or not a UUID (same envelope), nothing written', async () => {
      const before = await executionCount();
      const missing = await trigger(api, key, newId(), { contact_id: contactId });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ code: 'not_found', details: { resource: 'automation' } });
      for (const id of [(theirs.automations as Record<string, string>).Manuelle, ids['Archivée'], 'abc']) {
        expect(envelope(await trigger(api, key, id, { contact_id: contactId }))).toEqual(envelope(missing));
      }
      expect(await executionCount()).toBe(before);
    });

    it('404 not_found for a contact of another account, unknown, archived or merged (same envelope), nothing written', async () => {
      const archived = await freshContact();
      await lifecycle(api, mine.account_id, archived, 'archive');
      const merged = await freshContact();
      const survivor = await freshContact();
      await lifecycle(api, mine.account_id, merged, 'merge', { into_contact_id: survivor });
      const before = await executionCount();
      const missing = await trigger(api, key, ids.Manuelle, { contact_id: newId() });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ code: 'not_found', details: { resource: 'contact', field: 'contact_id' } });
      for (const id of [theirContactId, archived, merged]) {
        expect(envelope(await trigger(api, key, ids.Manuelle, { contact_id: id }))).toEqual(envelope(missing));
      }
      expect(await executionCount()).toBe(before);
    });

    it.each([
      ['Inactive', 'automation_inactive'],
      ['Brouillon', 'automation_not_published'],
      ['Sans déclencheur', 'no_trigger'],
    ])('409 for %s: %s, nothing written', async (name, code) => {
      const before = await executionCount();
      const response = await trigger(api, key, ids[name], { contact_id: contactId });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe(code);
      expect(await executionCount()).toBe(before);
    });

    it('409 already_enrolled while the contact has an active run, unless allow_concurrent_runs', async () => {
      const contact = await freshContact();
      const first = await triggered(api, key, ids.Manuelle, { contact_id: contact });
      const again = await trigger(api, key, ids.Manuelle, { contact_id: contact, event_data: { other: true } });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'already_enrolled', details: { execution_id: first.id } });
      expect(await executionRows(api, ids.Manuelle).then((rows) => rows.filter((r) => r.contact_id === contact))).toHaveLength(1);
      await triggered(api, key, ids['Concurrente'], { contact_id: contact, event_data: { run: 1 } });
      await triggered(api, key, ids['Concurrente'], { contact_id: contact, event_data: { run: 2 } });
      await db(api).query(`UPDATE automations.executions SET status = 'completed' WHERE id = $1`, [first.id]);
      api.clock.advance(5 * 60 * 1000 + 1);
      await triggered(api, key, ids.Manuelle, { contact_id: contact });
    });

    it('concurrent triggers for one contact are race-safe: exactly one 201, the others 409 already_enrolled', async () => {
      const contact = await freshContact();
      const responses = await Promise.all(Array.from({ length: 6 }, () => trigger(api, key, ids.Manuelle, { contact_id: contact })));
      expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      expect((await executionRows(api, ids.Manuelle)).filter((r) => r.contact_id === contact)).toHaveLength(1);
    });

    it('429 trigger_throttled (details.limit duplicate_trigger) for the same automation, contact and event_data within 5 minutes', async () => {
      const contact = await freshContact();
      await triggered(api, key, ids['Concurrente'], { contact_id: contact, event_data: { a: 1, b: { c: 2 } } });
      api.clock.advance(4 * 60 * 1000);
      const before = await executionCount();
      const duplicate = await trigger(api, key, ids['Concurrente'], { contact_id: contact, event_data: { b: { c: 2 }, a: 1 } });
      expect(duplicate.status).toBe(429);
      expect(duplicate.body).toMatchObject({ code: 'trigger_throttled', details: { limit: 'duplicate_trigger', window_seconds: 300, retry_after_seconds: 60 } });
      expect(duplicate.headers['retry-after']).toBe('60');
      expect(await executionCount()).toBe(before);
      await triggered(api, key, ids['Concurrente'], { contact_id: contact, event_data: { a: 2 } });
      api.clock.advance(60 * 1000 + 1);
      await triggered(api, key, ids['Concurrente'], { contact_id: contact, event_data: { a: 1, b: { c: 2 } } });
    });

    it('429 trigger_throttled (details.limit contact_daily_enrolments) at the 6th enrolment of a contact in 24 hours', async () => {
      const contact = await freshContact();
      for (let index = 0; index < 5; index++) {
        await triggered(api, key, ids['Concurrente'], { contact_id: contact, event_data: { n: index } });
        api.clock.advance(60 * 60 * 1000);
      }
      const sixth = await trigger(api, key, ids['Concurrente'], { contact_id: contact, event_data: { n: 6 } });
      expect(sixth.status).toBe(429);
      expect(sixth.body).toMatchObject({ code: 'trigger_throttled', details: { limit: 'contact_daily_enrolments', max: 5, window_seconds: 86400, retry_after_seconds: 19 * 3600 } });
      api.clock.advance(19 * 60 * 60 * 1000 + 1);
      await triggered(api, key, ids['Concurrente'], { contact_id: contact, event_data: { n: 7 } });
    });

    it('429 trigger_throttled (details.limit account_hourly_executions) beyond 200 executions of the account in an hour', async () => {
      const account = await api.provision(automationsBlueprint());
      const automationId = (account.automations as Record<string, string>)['Concurrente'];
      const contact = (await createContact(api, account.api_keys.full.key, { email: 'volume@example.com' })).id;
      const now = api.clock.now();
      await db(api).query(
        `INSERT INTO automations.executions (id, account_id, automation_id, contact_id, status, trigger_type, event_fingerprint, steps, created_at, updated_at)
         SELECT gen_random_uuid(), $1, $2, gen_random_uuid(), 'completed', 'custom_event', '', '[]', $3::timestamptz - interval '3590 seconds' + ((g - 1) * interval '1 millisecond'), $3 FROM generate_series(1, 200) g`,
        [account.account_id, automationId, now],
      );
      const refused = await trigger(api, account.api_keys.full.key, automationId, { contact_id: contact });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'trigger_throttled', details: { limit: 'account_hourly_executions', max: 200, window_seconds: 3600, retry_after_seconds: 10 } });
      expect(await db(api).count('automations.executions', 'account_id = $1', [account.account_id])).toBe(200);
      api.clock.advance(10 * 1000 + 200); // all of them leave the window
      await triggered(api, account.api_keys.full.key, automationId, { contact_id: contact });
    });

    it('the account hourly limit is race-safe: with 199 executions in the hour, 5 concurrent triggers give one 201 and four 429', async () => {
      const account = await api.provision(automationsBlueprint());
      const automationId = (account.automations as Record<string, string>)['Concurrente'];
      const contacts: string[] = [];
      for (let index = 0; index < 5; index++) contacts.push((await createContact(api, account.api_keys.full.key, { email: `course${index}@example.com` })).id);
      await db(api).query(
        `INSERT INTO automations.executions (id, account_id, automation_id, contact_id, status, trigger_type, event_fingerprint, steps, created_at, updated_at)
         SELECT gen_random_uuid(), $1, $2, gen_random_uuid(), 'completed', 'custom_event', '', '[]', $3, $3 FROM generate_series(1, 199)`,
        [account.account_id, automationId, api.clock.now()],
      );
      const responses = await Promise.all(contacts.map((contact) => trigger(api, account.api_keys.full.key, automationId, { contact_id: contact })));
      expect(responses.map((response) => response.status).sort()).toEqual([201, 429, 429, 429, 429]);
      expect(responses.filter((r) => r.status === 429).every((r) => r.body.details.limit === 'account_hourly_executions')).toBe(true);
      expect(await db(api).count('automations.executions', 'account_id = $1', [account.account_id])).toBe(200);
    });

    it('a trigger_throttled refusal is a business 429: it consumes the key quota and counts in status_4xx, not rate_limited_count', async () => {
      const account = await api.provision(automationsBlueprint({ api_keys: [{ name: 'tight', preset: 'full_integration', per_hour: 3 }] }));
      const tight = account.api_keys.tight;
      const automationId = (account.automations as Record<string, string>)['Concurrente'];
      const contact = (await createContact(api, tight.key, { email: 'quota@example.com' })).id; // 1 unit
      await triggered(api, tight.key, automationId, { contact_id: contact }); // 2 units
      expect((await trigger(api, tight.key, automationId, { contact_id: contact })).body.code).toBe('trigger_throttled'); // 3 units
      const refused = await api.request({ path: '/v1/automations', token: tight.key });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limit_exceeded');
      await new Promise((resolve) => setTimeout(resolve, 10));
      await (api.app.get(UsageRecorder) as UsageRecorder & { flush?: () => Promise<void> }).flush?.();
      await api.app.get(CommandBus).execute(new AggregateUsageCommand());
      await api.app.get(RedisConnection).client.del(`${api.services.redisPrefix}:rl:key_hour:3600:${tight.id}`); // the quota window ends
      const hour = new Date(Math.floor(api.clock.now().getTime() / 3_600_000) * 3_600_000);
      const usage = expectStatus(
        await api.request({ path: '/v1/usage', token: tight.key, query: { from: hour.toISOString(), to: new Date(hour.getTime() + 3_600_000).toISOString(), granularity: 'hour' } }),
        200,
      ).body.data;
      expect(usage.totals).toMatchObject({ request_count: 4, status_2xx: 2, status_4xx: 1, rate_limited_count: 1 });
    });

    it.each([
      ['missing contact_id', {}, 'contact_id', 'required'],
      ['a contact_id that is not a UUID', { contact_id: 'abc' }, 'contact_id', 'invalid_format'],
      ['a contact_id of the wrong type', { contact_id: 12 }, 'contact_id', 'invalid_type'],
      ['event_data that is not an object', { contact_id: newId(), event_data: [1, 2] }, 'event_data', 'invalid_type'],
      ['event_data over 16 KiB', { contact_id: newId(), event_data: { big: 'x'.repeat(17 * 1024) } }, 'event_data', 'too_large'],
      ['an unknown field', { contact_id: newId(), priority: 1 }, 'priority', 'unknown_field'],
    ])('400 validation_error for %s, nothing written', async (_, body, field, reason) => {
      const before = await executionCount();
      const response = await trigger(api, key, ids.Manuelle, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_error');
      expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, reason })]));
      expect(await executionCount()).toBe(before);
    });

    it('invalid JSON gives 400 and a missing Content-Type 415, never 500', async () => {
      const invalid = await api.request({ method: 'POST', path: `/v1/automations/${ids.Manuelle}/trigger`, token: key, rawBody: '{"contact_id":', headers: { 'content-type': 'application/json' } });
      expect(invalid.status).toBe(400);
      const noType = await api.request({ method: 'POST', path: `/v1/automations/${ids.Manuelle}/trigger`, token: key, rawBody: '{}' });
      expect(noType.status).toBe(415);
    });
  });
});
