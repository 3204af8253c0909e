import { CommandBus } from '@nestjs/cqrs';
import { OutgoingEmailRequest, QueueEmailCommand, QueuedEmail } from '@leadflow/messaging-contracts';
import { asAccountId, encodeCursor } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi } from './support/test-api';

const UNKNOWN_ACCOUNT = '6f1c8a52-3a0e-4c55-9a51-4f1b7c1d2e3f';

/** `GET /admin/v1/accounts/{account_id}/emails` (operator-api › Further operator endpoints), over the api's QueueEmailCommand. */
describe('GET /admin/v1/accounts/{account_id}/emails', () => {
  let api: TestApi;
  let mine: ProvisionedAccount;
  let other: ProvisionedAccount;

  const queue = (account: ProvisionedAccount, overrides: Partial<OutgoingEmailRequest> = {}): Promise<QueuedEmail> => {
    api.clock.advance(1000); // distinct created_at, newest last
    return api.app.get(TransactionHost).run(() =>
      api.app.get(CommandBus).execute(
        new QueueEmailCommand(asAccountId(account.account_id), {
          to: 'Nadia.Belanger@example.com',
          subject: 'Votre soumission',
          html: '<p>Bonjour</p>',
          type: 'transactional',
          priority: 1,
          ...overrides,
        }),
      ),
    );
  };
  const list = (accountId: string, query: Record<string, string> = {}) =>
    api.request({ path: `/admin/v1/accounts/${accountId}/emails`, token: TEST_ADMIN_TOKEN, query });

  beforeAll(async () => {
    api = await TestApi.start();
    mine = await api.provision({ senders: [{ email: 'bonjour@lavoie.test', name: 'Rénovations Lavoie', is_default: true }] });
    other = await api.provision({ name: 'Toitures Bergeron', senders: [{ email: 'info@bergeron.test', name: 'Bergeron' }] });
  });
  afterAll(() => api.close());

  it('lists the outgoing emails newest first with id, to, subject, status, type, priority, is_test and created_at', async () => {
    const first = await queue(mine, { type: 'quote', priority: 2, subject: 'Soumission 2026-0001' });
    const second = await queue(mine, { isTest: true, type: 'test', subject: 'Essai' });
    await queue(other, { subject: 'Pas à moi' });

    const response = await list(mine.account_id);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [
        {
          id: second.id,
          to: 'nadia.belanger@example.com',
          subject: '[TEST] Essai',
          status: 'queued',
          type: 'test',
          priority: 1,
          is_test: true,
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        },
        {
          id: first.id,
          to: 'nadia.belanger@example.com',
          subject: 'Soumission 2026-0001',
          status: 'queued',
          type: 'quote',
          priority: 2,
          is_test: false,
          created_at: expect.any(String),
        },
      ],
      pagination: { next_cursor: null, has_more: false, limit: 20, total_count: 2 },
    });
    expect(Date.parse(response.body.data[0].created_at)).toBeGreaterThan(Date.parse(response.body.data[1].created_at));
  });

  it('walks pages with cursor and limit', async () => {
    const account = await api.provision({ senders: [{ email: 'pages@lavoie.test', name: 'Pages' }] });
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await queue(account, { subject: `Courriel ${index}` })).id);

    const page1 = await list(account.account_id, { limit: '2' });
    const page2 = await list(account.account_id, { limit: '2', cursor: page1.body.pagination.next_cursor });

    expect(page1.body.data.map((email: { id: string }) => email.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.pagination).toEqual({
      next_cursor: encodeCursor({ createdAt: new Date(page1.body.data[1].created_at), id: ids[1] }),
      has_more: true,
      limit: 2,
      total_count: 3,
    });
    expect(page2.body.data.map((email: { id: string }) => email.id)).toEqual([ids[0]]);
    expect(page2.body.pagination).toMatchObject({ next_cursor: null, has_more: false, total_count: 3 });
  });

  it("never lists another account's emails", async () => {
    const a = await api.provision({ name: 'Compte A', senders: [{ email: 'a@a.test', name: 'A' }] });
    const b = await api.provision({ name: 'Compte B', senders: [{ email: 'b@b.test', name: 'B' }] });
    const ofA = await queue(a, { subject: 'Pour A' });
    const ofB = await queue(b, { subject: 'Pour B' });

    const listedA = await list(a.account_id);
    const listedB = await list(b.account_id);

    expect(listedA.body.data.map((email: { id: string }) => email.id)).toEqual([ofA.id]);
    expect(listedA.body.pagination.total_count).toBe(1);
    expect(listedB.body.data.map((email: { id: string }) => email.id)).toEqual([ofB.id]);
    expect(listedB.body.pagination.total_count).toBe(1);
    const owners = await sqlOf(api).query(`SELECT id, account_id FROM messaging.outgoing_emails WHERE id = ANY($1::uuid[]) ORDER BY subject`, [[ofA.id, ofB.id]]);
    expect(owners).toEqual([
      { id: ofA.id, account_id: a.account_id },
      { id: ofB.id, account_id: b.account_id },
    ]);
  });

  it('answers 200 with an empty page for an account that has sent nothing', async () => {
    const quiet = await api.provision();

    const response = await list(quiet.account_id);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [], pagination: { next_cursor: null, has_more: false, limit: 20, total_count: 0 } });
  });

  it('answers 404 not_found for an unknown account and for a non-UUID id', async () => {
    for (const id of [UNKNOWN_ACCOUNT, 'nope']) {
      const response = await list(id);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'not_found', details: { resource: 'account' }, type: 'not_found_error' });
    }
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ cursor: 'not a cursor!' }, 'cursor'],
  ])('answers 400 invalid_request for %j with details.field', async (query, field) => {
    const response = await list(mine.account_id, query);

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_request', details: { field } });
  });

  it('answers 401 invalid_admin_token without the operator token', async () => {
    const response = await api.request({ path: `/admin/v1/accounts/${mine.account_id}/emails`, token: 'wrong' });

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'invalid_admin_token' });
  });
});
