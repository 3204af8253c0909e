import { createServer } from 'node:net';
import { Browser, chromium } from 'playwright-core';
import { FixedClock } from '@leadflow/shared-kernel';
import { expectStatus } from './support/contacts-fixtures';
import { createQuote, getQuote, pageLink, quoteEmails, quotesBlueprint, SENDABLE, sendQuote } from './support/quotes-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/** Debian's chromium package (`.ci/run` installs it); playwright-core drives it, no browser download. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A loopback port nothing listens on (bound, then released) for the api and PUBLIC_BASE_URL. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

jest.setTimeout(90_000);

/**
 * The "Done when": a real person opens the emailed link of a sent quote in a browser, sees its
 * line items and taxes in the quote's language, clicks Sign, and the API then reads `signed`. The api
 * listens on a loopback port whose address is PUBLIC_BASE_URL, so the emailed link is followed as is.
 */
describe('the public quote page in headless Chromium', () => {
  let api: TestApi;
  let browser: Browser;
  let account: ProvisionedAccount;
  let token: string;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    api = await TestApi.start({ PUBLIC_BASE_URL: base }, new FixedClock(new Date('2026-05-03T14:00:00.000Z')));
    await api.app.listen({ port, host: '127.0.0.1' });
    account = await api.provision(quotesBlueprint());
    token = account.api_keys.full.key;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  /** Creates and sends a quote; returns it with the link of the email queued for it. */
  async function sentQuote(body: Record<string, unknown>): Promise<{ id: string; number: string; link: string }> {
    const quote = await createQuote(api, token, body);
    expectStatus(await sendQuote(api, token, quote.id), 200);
    const email = (await quoteEmails(api, account)).find((row) => row.to === String(body.prospect_email).toLowerCase());
    return { id: quote.id, number: quote.quote_number, link: pageLink(email!.html) };
  }

  it('French: opens the emailed link, shows the line items, TPS, TVQ and total, Sign → 303 → the page shows it signed, then the API reads signed', async () => {
    const quote = await sentQuote({ ...SENDABLE, prospect_phone: null, prospect_email: 'navigateur@example.com', prospect_name: 'Nadia <img src=x onerror=alert(1)>' });
    expect(quote.link.startsWith(`${base}/q/`)).toBe(true);
    const page = await browser.newPage();
    try {
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const response = await page.goto(quote.link);
      expect(response?.status()).toBe(200);
      expect(await page.locator('html').getAttribute('lang')).toBe('fr');
      await expect(page.locator('h1').textContent()).resolves.toContain(`Soumission n° ${quote.number}`);
      const rows = page.locator('tr.line-item');
      expect(await rows.count()).toBe(2);
      expect(await rows.nth(0).innerText()).toMatch(/Armoires de cuisine\s+1\s+4\s200,00\s\$\s+4\s200,00\s\$/u);
      expect(await rows.nth(1).innerText()).toMatch(/Pose \(heures\)\s+2,5\s+85,00\s\$\s+212,50\s\$/u);
      expect(await page.locator('tr.subtotal').innerText()).toMatch(/Sous-total\s+4\s412,50\s\$/u);
      expect(await page.locator('tr.tps').innerText()).toMatch(/TPS \(5\s%\)\s+220,63\s\$/u);
      expect(await page.locator('tr.tvq').innerText()).toMatch(/TVQ \(9,975\s%\)\s+440,15\s\$/u);
      expect(await page.locator('tr.total').innerText()).toMatch(/Total\s+5\s073,28\s\$/u);
      expect(await page.locator('.prospect').innerText()).toContain('Nadia <img src=x onerror=alert(1)>');
      expect(await page.locator('.prospect img').count()).toBe(0);
      expect((await getQuote(api, token, quote.id)).status).toBe('viewed');

      // The form post answers 303 See Other to the page itself; the browser follows it with a GET.
      const statuses: number[] = [];
      page.on('response', (answer) => statuses.push(answer.status()));
      const [post] = await Promise.all([
        page.waitForResponse((answer) => answer.url() === `${quote.link}/sign` && answer.request().method() === 'POST'),
        page.getByRole('button', { name: 'Signer la soumission' }).click(),
      ]);
      expect(post.status()).toBe(303);
      expect(post.headers().location).toBe(new URL(quote.link).pathname);
      await page.waitForURL(quote.link);
      await expect(page.locator('p.status').textContent()).resolves.toBe('Cette soumission a été signée. Merci!');
      expect(await page.locator('form').count()).toBe(0);
      expect(statuses).toEqual([303, 200]);
      // A reload is a GET of the page: nothing is posted again.
      expect((await page.reload())?.status()).toBe(200);
      expect(dialogs).toEqual([]);
    } finally {
      await page.close();
    }
    const signed = await api.request({ path: `/v1/quotes/${quote.id}`, token });
    expect(signed.body.data).toMatchObject({ status: 'signed', signed_at: '2026-05-03T14:00:00.000Z' });
    const listed = await api.request({ path: '/v1/quotes', token, query: { status: 'signed' } });
    expect(listed.body.data.map((row: { id: string }) => row.id)).toContain(quote.id);
  });

  it('English: the page reads in English with en-CA amounts; Decline → 303 → the page shows it declined', async () => {
    const quote = await sentQuote({ ...SENDABLE, language: 'en', prospect_phone: null, prospect_email: 'browser.en@example.com' });
    const page = await browser.newPage();
    try {
      await page.goto(quote.link);
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await page.locator('tr.tps').innerText()).toMatch(/GST \(5%\)\s+\$220\.63/);
      expect(await page.locator('tr.tvq').innerText()).toMatch(/QST \(9\.975%\)\s+\$440\.15/);
      expect(await page.locator('tr.total').innerText()).toMatch(/Total\s+\$5,073\.28/);
      const [post] = await Promise.all([
        page.waitForResponse((answer) => answer.url() === `${quote.link}/decline` && answer.request().method() === 'POST'),
        page.getByRole('button', { name: 'Decline the quote' }).click(),
      ]);
      expect(post.status()).toBe(303);
      await page.waitForURL(quote.link);
      await expect(page.locator('p.status').textContent()).resolves.toBe('You declined this quote.');
      expect(await page.locator('form').count()).toBe(0);
    } finally {
      await page.close();
    }
    expect((await getQuote(api, token, quote.id)).status).toBe('declined');
  });
});
