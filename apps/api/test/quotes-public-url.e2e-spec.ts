import { createHash, randomBytes } from 'node:crypto';
import { FixedClock } from '@leadflow/shared-kernel';
import { db, expectStatus } from './support/contacts-fixtures';
import { createQuote, getQuote, pageLink, patchQuote, quoteEmails, quotesBlueprint, SENDABLE, sendQuote } from './support/quotes-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

const BASE = 'https://devis.tremblay.test';

/**
 * `public_url` of a quote (issue 18, item 2): the lead's page, exposed once the quote is sent so an
 * integrator can pass it on through a channel of its own. The token is derived from the quote under a
 * server key and never stored (only its SHA-256 is).
 */
describe('quote public_url', () => {
  const clock = new FixedClock(new Date('2026-05-03T14:00:00.000Z'));
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start({ PUBLIC_BASE_URL: BASE }, clock);
    account = await api.provision(quotesBlueprint());
    token = account.api_keys.full.key;
  });
  afterAll(() => api.close());

  const listed = async (id: string) => expectStatus(await api.request({ path: '/v1/quotes', token }), 200).body.data.find((quote: { id: string }) => quote.id === id);
  const emailedLink = async (to: string) => pageLink((await quoteEmails(api, account)).find((row) => row.to === to)!.html);

  it('public_url is null before sending, then the emailed page link on the send answer, GET, the list and the quote_sent event; that URL answers 200 with the page', async () => {
    const draft = await createQuote(api, token, { ...SENDABLE, prospect_email: 'url.lead@example.com' });
    expect(draft.public_url).toBeNull();
    expect((await getQuote(api, token, draft.id)).public_url).toBeNull();
    expect((await listed(draft.id)).public_url).toBeNull();

    const sent = expectStatus(await sendQuote(api, token, draft.id), 200).body.data;
    const link = await emailedLink('url.lead@example.com');
    expect(link).toMatch(new RegExp(`^${BASE}/q/[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}$`));
    expect(sent.public_url).toBe(link);
    expect((await getQuote(api, token, draft.id)).public_url).toBe(link);
    expect((await listed(draft.id)).public_url).toBe(link);
    const [event] = await db(api).query(`SELECT payload FROM platform.outbox WHERE type = 'quote_sent' AND payload->>'quote_id' = $1`, [draft.id]);
    expect(event.payload.quote.public_url).toBe(link);

    const page = await api.request({ path: new URL(sent.public_url).pathname });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.raw.body).toContain(sent.quote_number);
    expect((await getQuote(api, token, draft.id)).status).toBe('viewed');
  });

  it('public_url stays the same link after the page is viewed and the quote is cancelled (the page then says so)', async () => {
    const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'url.cancel@example.com' });
    const link = expectStatus(await sendQuote(api, token, quote.id), 200).body.data.public_url;
    expect((await api.request({ path: new URL(link).pathname })).status).toBe(200);
    const cancelled = expectStatus(await patchQuote(api, token, quote.id, { status: 'cancelled' }), 200).body.data;
    expect(cancelled).toMatchObject({ status: 'cancelled', public_url: link });
    expect((await getQuote(api, token, quote.id)).public_url).toBe(link);
    expect((await api.request({ path: new URL(link).pathname })).status).toBe(200);
  });

  it('public_url is never stored: the quote row holds only the SHA-256 of the token', async () => {
    const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'url.stored@example.com' });
    const link: string = expectStatus(await sendQuote(api, token, quote.id), 200).body.data.public_url;
    const tokenText = link.slice(`${BASE}/q/`.length);
    const [row] = await db(api).query(`SELECT * FROM quotes.quotes WHERE id = $1`, [quote.id]);
    expect(row.public_token_hash).toBe(createHash('sha256').update(tokenText).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(tokenText);
  });

  it('public_url is null when the stored hash is not that of the derived token (a link made before tokens were derived): that link still opens the page', async () => {
    const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'url.legacy@example.com' });
    expectStatus(await sendQuote(api, token, quote.id), 200);
    const account16 = Buffer.from(account.account_id.replace(/-/g, ''), 'hex').toString('base64url');
    const legacy = `${account16}.${randomBytes(32).toString('base64url')}`;
    await db(api).query(`UPDATE quotes.quotes SET public_token_hash = $2 WHERE id = $1`, [quote.id, createHash('sha256').update(legacy).digest('hex')]);
    expect((await getQuote(api, token, quote.id)).public_url).toBeNull();
    const page = await api.request({ path: `/q/${legacy}` });
    expect(page.status).toBe(200);
    expect(page.raw.body).toContain(quote.quote_number);
  });

  it("another account's key reads no public_url of this account: its GET answers 404 like a missing quote", async () => {
    const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'url.other@example.com' });
    expectStatus(await sendQuote(api, token, quote.id), 200);
    const other = await api.provision(quotesBlueprint());
    const theirs = await api.request({ path: `/v1/quotes/${quote.id}`, token: other.api_keys.full.key });
    const missing = await api.request({ path: '/v1/quotes/00000000-0000-4000-8000-000000000000', token: other.api_keys.full.key });
    expect({ status: theirs.status, code: theirs.body.code, details: theirs.body.details }).toEqual({
      status: missing.status,
      code: missing.body.code,
      details: missing.body.details,
    });
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs.body)).not.toContain('/q/');
  });
});
