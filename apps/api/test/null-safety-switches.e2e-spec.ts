import { newId } from '@leadflow/shared-kernel';
import { createContact, db, expectStatus } from './support/contacts-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * The three writes an outside campaign made with `null` (taken as absent, so the default applied): a real
 * merge for `"dry_run": null`, a real email for `"test": null`, a created contact for
 * `"create_if_missing": null`. None of these members is documented nullable: each answers 400
 * `validation_error` naming the field with reason `invalid_type`, and nothing is written. The rule for
 * every other member is swept by null-and-types.property.e2e-spec.ts.
 */
describe('a safety switch sent as null is refused, never read as its default', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision({
      senders: [{ email: 'ventes@lavoie.example', name: 'Ventes', is_default: true }],
      team_members: [{ email: 'marc@lavoie.example', first_name: 'Marc', is_active: true }],
    });
    token = account.api_keys.full.key;
  });
  afterAll(() => api.close());

  const refusal = (response: any) => ({ status: response.status, code: response.body.code, details: response.body.details });
  const expected = (field: string) => ({ status: 400, code: 'validation_error', details: [expect.objectContaining({ field, reason: 'invalid_type' })] });

  it('merge dry_run null: 400 validation_error invalid_type, and both contacts stay as they were (no merge)', async () => {
    const merged = await createContact(api, token, { email: `merged.${newId().slice(-8)}@example.com`, first_name: 'Juliette' });
    const survivor = await createContact(api, token, { email: `survivor.${newId().slice(-8)}@example.com`, first_name: 'Luc' });
    const outboxBefore = await db(api).count('platform.outbox');

    const response = await api.request({ method: 'POST', path: `/v1/contacts/${merged.id}/merge`, token, body: { into: survivor.id, dry_run: null } });

    expect(refusal(response)).toEqual(expected('dry_run'));
    const rows = await db(api).query(`SELECT id, merged_into_id FROM contacts.contacts WHERE id = ANY($1) ORDER BY first_name`, [[merged.id, survivor.id]]);
    expect(rows.map((row) => row.merged_into_id)).toEqual([null, null]);
    expect(await db(api).count('platform.outbox')).toBe(outboxBefore);
    expectStatus(await api.request({ path: `/v1/contacts/${merged.id}`, token }), 200);
  });

  it('emails send test null: 400 validation_error invalid_type, and no email is queued', async () => {
    const before = await db(api).count('messaging.outgoing_emails');

    const response = await api.request({ method: 'POST', path: '/v1/emails/send', token, body: { to: 'marc@lavoie.example', subject: 'Bonjour', body: '<p>Bonjour</p>', test: null } });

    expect(refusal(response)).toEqual(expected('test'));
    expect(await db(api).count('messaging.outgoing_emails')).toBe(before);
  });

  it('events contact.create_if_missing null: 400 validation_error invalid_type, and no contact or event is recorded', async () => {
    const email = `nobody.${newId().slice(-8)}@example.com`;
    const contactsBefore = await db(api).count('contacts.contacts');
    const outboxBefore = await db(api).count('platform.outbox');

    const response = await api.request({ method: 'POST', path: '/v1/events', token, body: { event: 'devis_demande', contact: { email, create_if_missing: null } } });

    expect(refusal(response)).toEqual(expected('contact.create_if_missing'));
    expect(await db(api).count('contacts.contacts')).toBe(contactsBefore);
    expect(await db(api).count('platform.outbox')).toBe(outboxBefore);
  });

  it('a documented nullable member still clears: PATCH company null empties the company', async () => {
    const contact = await createContact(api, token, { email: `clear.${newId().slice(-8)}@example.com`, company: 'Toitures Tremblay' });

    const response = expectStatus(await api.request({ method: 'PATCH', path: `/v1/contacts/${contact.id}`, token, body: { company: null } }), 200);

    expect(response.body.data.company).toBeNull();
    expect((await db(api).query(`SELECT company FROM contacts.contacts WHERE id = $1`, [contact.id]))[0].company).toBeNull();
  });
});
