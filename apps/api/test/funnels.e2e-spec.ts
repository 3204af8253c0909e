import { FixedClock } from '@leadflow/shared-kernel';
// The replay logic shared with `npm run demo:capture` (tools/funnels is not an Nx project).
// eslint-disable-next-line @nx/enforce-module-boundaries
import {
  checkFunnelResponse,
  expectedSummary,
  funnelAccount,
  funnelRequest,
  loadFunnelPayloads,
  newReplayState,
} from '../../../tools/funnels/funnel-replay';
import { db } from './support/contacts-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/**
 * tools/funnels: the 64 real funnel payloads replayed in file-name order on a fresh account provisioned
 * from funnel-account.json, each file's `expect` asserted (README › expect), the server clock moved
 * where a file says so (advance_clock_minutes); then what the descriptions say was (not) written.
 */
describe('funnels: real capture payloads replayed in order (tools/funnels)', () => {
  const payloads = loadFunnelPayloads();
  const clock = new FixedClock(new Date('2026-05-14T13:00:00.000Z'));
  const state = newReplayState();
  const responses = new Map<string, TestResponse>();
  let api: TestApi;
  let account: ProvisionedAccount;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    const provisioned = await api.admin('POST', '/accounts', funnelAccount());
    if (provisioned.status !== 201) throw new Error(`provisioning failed: ${JSON.stringify(provisioned.body)}`);
    account = provisioned.body;
  });
  afterAll(() => api.close());

  const contactCount = () => db(api).count('contacts.contacts', 'account_id = $1', [account.account_id]);
  const contactsSignature = async () =>
    JSON.stringify(await db(api).query(`SELECT * FROM contacts.contacts WHERE account_id = $1 ORDER BY id`, [account.account_id]));

  it('has at least 40 payload files, numbered 01 to 64', () => {
    expect(payloads.length).toBeGreaterThanOrEqual(40);
    expect(payloads.map((payload) => payload.stem.slice(0, 2))).toEqual(payloads.map((_, index) => String(index + 1).padStart(2, '0')));
  });

  for (const payload of payloads) {
    it(`${payload.stem}: ${expectedSummary(payload.file.expect)}`, async () => {
      if (payload.file.advance_clock_minutes) clock.advance(payload.file.advance_clock_minutes * 60_000);
      const { headers, body } = funnelRequest(payload, account.api_keys.capture.key, account);
      const isError = payload.file.expect.status >= 400;
      const before = isError ? await contactsSignature() : null;
      const response = await api.request({ method: 'POST', path: '/v1/leads/capture', headers, rawBody: body });
      responses.set(payload.stem, response);
      if (process.env.FUNNELS_DEBUG) console.log(payload.stem, response.status, JSON.stringify(response.body));
      expect(checkFunnelResponse(payload, response.status, response.body, state)).toEqual([]);
      if (before !== null) {
        // No 4xx file created or changed a contact.
        expect(await contactsSignature()).toBe(before);
      }
    });
  }

  describe('after the replay', () => {
    const contactOf = async (stem: string) => {
      const id = state.contactIdByStem.get(stem);
      const [row] = await db(api).query(`SELECT * FROM contacts.contacts WHERE account_id = $1 AND id = $2`, [account.account_id, id]);
      return row;
    };

    it('every 200 answered a distinct contact per person: one contact per created file', async () => {
      const created = payloads.filter((payload) => payload.file.expect.contact_was_new === true).length;
      expect(await contactCount()).toBe(created);
    });

    it('file 04 replaced Élise\'s budget custom field though it recorded nothing else; her names stay accented', async () => {
      const elise = await contactOf('01-elise-cote-webflow-cuisine');
      expect(elise.custom_fields[account.custom_fields!.budget as string]).toBe('40 000 $ et plus');
      expect(elise.custom_fields[account.custom_fields!.type_projet as string]).toBe('cuisine');
      expect(elise.custom_fields[account.custom_fields!.superficie as string]).toBe(14);
      expect([elise.first_name, elise.last_name]).toEqual(['Élise', 'Côté']);
      const tags = await db(api).query(
        `SELECT t.name FROM contacts.contact_tags ct JOIN contacts.tags t ON t.account_id = ct.account_id AND t.id = ct.tag_id
          WHERE ct.account_id = $1 AND ct.contact_id = $2 ORDER BY t.name`,
        [account.account_id, elise.id],
      );
      expect(tags.map((tag) => tag.name)).toEqual(['Cuisine', 'Facebook Ads']);
      const captures = await db(api).count('contacts.lead_captures', 'account_id = $1 AND contact_id = $2', [account.account_id, elise.id]);
      expect(captures).toBe(1);
      const activity = await db(api).count('platform.activity_log', `account_id = $1 AND contact_id = $2 AND type = 'lead_created'`, [account.account_id, elise.id]);
      expect(activity).toBe(1);
    });

    it('file 06 kept the gclid beside utm; file 24 was attributed to google / cpc; file 25 kept no gclid', async () => {
      expect((await contactOf('06-francois-belanger-sous-sol-google')).attribution).toMatchObject({ source: 'google', medium: 'cpc', gclid: expect.any(String) });
      expect((await contactOf('24-stephanie-gauthier-gclid-only')).attribution).toEqual({
        source: 'google',
        medium: 'cpc',
        gclid: 'EAIaIQobChMI8pXk2LWQhgMVgUZHAR2x7Q9bEAAYASAAEgJ3Y_D_BwE',
      });
      expect((await contactOf('25-olivier-poirier-gclid-no-ads-consent')).attribution).toEqual({ source: 'google', medium: 'cpc' });
    });

    it('file 23 left Mathieu\'s contact untouched (email wins, nothing moved)', async () => {
      const mathieu = await contactOf('22-mathieu-leblanc-sous-sol');
      expect(mathieu.phone).toBe('+15145550122');
      const owner = await db(api).query(`SELECT contact_id FROM contacts.contact_identities WHERE account_id = $1 AND kind = 'phone' AND value = '+15145550122'`, [
        account.account_id,
      ]);
      expect(owner).toEqual([{ contact_id: mathieu.id }]);
    });

    it('file 61 kept (438) 555-0161 as a secondary phone of Gaétan, filled his address and kept ventes / gagne', async () => {
      const gaetan = await contactOf('43-gaetan-rousseau-deposit-paid-won');
      const phones = await db(api).query(`SELECT value, is_primary FROM contacts.contact_identities WHERE account_id = $1 AND contact_id = $2 AND kind = 'phone' ORDER BY value`, [
        account.account_id,
        gaetan.id,
      ]);
      expect(phones).toEqual([
        { value: '+14385550161', is_primary: false },
        { value: '+14505550144', is_primary: true },
      ]);
      expect(gaetan).toMatchObject({ street: '118, rue des Érables', city: 'Terrebonne', province: 'QC', postal_code: 'J6W 2K1', country: 'CA', phone: '+14505550144' });
      expect(gaetan.stage_id).toBe(account.pipelines!.ventes.stages.gagne);
      expect(gaetan.deal_value_cents).toBe('1850000');
    });

    it('files 30 and 31 entered the renovation pipeline; 32 the soumission stage of the default pipeline', async () => {
      const pipelines = account.pipelines!;
      expect((await contactOf('30-louis-philippe-morin-renovation-nested')).stage_id).toBe(pipelines.renovation.stages.visite);
      expect((await contactOf('31-josee-girard-renovation-flat-keys')).stage_id).toBe(pipelines.renovation.stages['premier-contact']);
      expect((await contactOf('32-danielle-brown-stage-in-default-pipeline')).stage_id).toBe(pipelines.ventes.stages.soumission);
      const morin = await contactOf('30-louis-philippe-morin-renovation-nested');
      expect(morin).toMatchObject({ deal_value_cents: '4500000', sales_rep_id: account.team_members['julie@tremblay.test'], city: 'Montréal', sector: 'Plateau-Mont-Royal' });
    });

    it('the reserved tags of 28 and 29 do not exist; the other tags were created on the fly', async () => {
      const names = (await db(api).query(`SELECT name FROM contacts.tags WHERE account_id = $1`, [account.account_id])).map((row) => row.name);
      expect(names.some((name) => /campagne/i.test(name))).toBe(false);
      expect(names).toEqual(expect.arrayContaining(['Salle de bain', 'Référence client', 'Sous-sol', 'Salon Habitat 2026']));
      expect(names).not.toContain('Mobile');
    });

    it('file 40 went to the main System; extensions of 56 and 57 were dropped', async () => {
      expect((await contactOf('40-nathalie-cote-roy-inactive-system-laval')).system_id).toBe(account.systems.Main);
      expect((await contactOf('56-daniel-ouimet-phone-extension-en')).phone).toBe('+15145550156');
      expect((await contactOf('57-sylvie-beaulieu-phone-poste')).phone).toBe('+14505550157');
    });

    it('files 02 and 63 replayed the stored response of 01 (same activity, same original_created_at)', () => {
      const original = responses.get('01-elise-cote-webflow-cuisine')!.body;
      for (const stem of ['02-elise-cote-webhook-retry-same-key', '63-elise-cote-key-replay-after-window']) {
        const replay = responses.get(stem)!;
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.body).toMatchObject({ contact_id: original.contact_id, activity_id: original.activity_id, original_created_at: original.original_created_at });
      }
    });

    it('one lead_created outbox event per recorded capture', async () => {
      const captures = await db(api).count('contacts.lead_captures', 'account_id = $1', [account.account_id]);
      const events = await db(api).count('platform.outbox', `account_id = $1 AND type = 'lead_created'`, [account.account_id]);
      expect(events).toBe(captures);
      const created = [...responses.values()].filter((response) => response.status === 200 && response.body.status === 'created' && response.headers['idempotent-replayed'] !== 'true');
      expect(captures).toBe(created.length);
    });
  });
});
