import { FixedClock, newId } from '@leadflow/shared-kernel';
import { db } from './support/contacts-fixtures';
import { captureLead, freshPhone, leadsBlueprint } from './support/lead-capture-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * Lead capture under concurrency: never a duplicate. Parallel requests over real HTTP handling on one
 * PostgreSQL database; the unique identity index decides, the loser retries and resolves the winner.
 */
describe('lead capture: concurrent submissions', () => {
  const clock = new FixedClock(new Date('2026-05-14T13:00:00.000Z'));
  let api: TestApi;
  let account: ProvisionedAccount;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision(leadsBlueprint());
  });
  afterAll(() => api.close());

  const count = (table: string, where: string, parameters: unknown[]) => db(api).count(table, `account_id = $1 AND ${where}`, [account.account_id, ...parameters]);
  const parallel = (bodies: unknown[], headers: Record<string, string> = {}) =>
    Promise.all(bodies.map((body) => captureLead(api, account.api_keys.capture.key, body, { headers })));

  it('ten concurrent captures of the same new email give one contact, one capture, one lead_created; the others are replays', async () => {
    const email = `race.${newId().slice(-8)}@example.com`;
    const responses = await parallel(Array.from({ length: 10 }, (_, index) => ({ email: index % 2 ? email.toUpperCase() : email, phone: freshPhone().raw, sms_consent: true, tags: ['Course'] })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const ids = new Set(responses.map((response) => response.body.contact_id));
    expect(ids.size).toBe(1);
    const [contactId] = [...ids];
    expect(responses.filter((response) => response.body.status === 'created')).toHaveLength(1);
    expect(responses.filter((response) => response.body.status === 'idempotent_replay')).toHaveLength(9);
    expect(await count('contacts.contacts', 'email = $2', [email])).toBe(1);
    expect(await count('contacts.contact_identities', `kind = 'email' AND value = $2`, [email])).toBe(1);
    expect(await count('contacts.lead_captures', 'contact_id = $2', [contactId])).toBe(1);
    expect(await count('platform.activity_log', `contact_id = $2 AND type = 'lead_created'`, [contactId])).toBe(1);
    expect(await count('platform.outbox', `type = 'lead_created' AND payload->>'contact_id' = $2`, [contactId])).toBe(1);
    expect(await count('contacts.tags', `name = 'Course'`, [])).toBe(1);
  });

  it('concurrent captures of the same new phone with different emails give one contact (resolved by phone)', async () => {
    const phone = freshPhone();
    const responses = await parallel(Array.from({ length: 6 }, (_, index) => ({ email: `p${index}.${newId().slice(-6)}@example.com`, phone: phone.raw, sms_consent: true })));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(new Set(responses.map((response) => response.body.contact_id)).size).toBe(1);
    expect(await count('contacts.contact_identities', `kind = 'phone' AND value = $2`, [phone.e164])).toBe(1);
    expect(await count('contacts.contacts', 'phone = $2', [phone.e164])).toBe(1);
  });

  it('concurrent captures of an existing contact after its window record one capture (the row lock orders them)', async () => {
    const phone = freshPhone();
    const first = await captureLead(api, account.api_keys.capture.key, { phone: phone.raw, sms_consent: true, pipeline: { stage_slug: 'gagne' } });
    clock.advance(6 * 60_000);
    const responses = await parallel(Array.from({ length: 6 }, () => ({ phone: phone.raw, sms_consent: true })));
    expect(responses.map((response) => response.body.status).sort()).toEqual(['created', ...Array(5).fill('idempotent_replay')]);
    expect(await count('contacts.lead_captures', 'contact_id = $2', [first.body.contact_id])).toBe(2);
  });

  it('concurrent requests with one Idempotency-Key run the capture once (the others: 409 in progress or the replay)', async () => {
    const body = { phone: freshPhone().raw, sms_consent: true };
    const responses = await parallel(Array.from({ length: 5 }, () => body), { 'Idempotency-Key': `same-${newId().slice(-8)}` });
    const created = responses.filter((response) => response.status === 200 && response.body.status === 'created');
    expect(created).toHaveLength(1);
    for (const response of responses) {
      if (response.status === 409) expect(response.body).toMatchObject({ code: 'idempotency_conflict', details: { reason: 'in_progress' } });
      else expect(response.body.contact_id).toBe(created[0].body.contact_id);
    }
    expect(await count('contacts.lead_captures', 'contact_id = $2', [created[0].body.contact_id])).toBe(1);
  });
});
