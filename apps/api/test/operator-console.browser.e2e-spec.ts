import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { UsageRecorder } from '@leadflow/shared-platform';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { AggregateUsageCommand } from '@leadflow/usage-contracts';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the worker app under test (webhook deliveries), as in webhooks-delivery.e2e-spec.ts
import { createWorker } from '../../worker/src/bootstrap';
import { createContact, expectStatus } from './support/contacts-fixtures';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi } from './support/test-api';
import { generateCertificate, HttpsReceiver, TestCertificate, webhooksBlueprint } from './support/webhooks-fixtures';

/** Debian's chromium package (`.ci/run` installs it); playwright-core drives it, no browser download. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SCREENSHOTS = resolve(__dirname, '..', '..', '..', 'docs', 'screenshots');
/** `CONSOLE_SCREENSHOTS=1` (or `DOCS_SCREENSHOTS=1`) rewrites docs/screenshots/console-*.png; off by default so a run leaves the tree clean. */
const SHOOT = process.env.CONSOLE_SCREENSHOTS === '1' || process.env.DOCS_SCREENSHOTS === '1';

/** Worker settings for a quick delivery (as the webhooks e2e tests use). */
const WORKER_ENV = { OUTBOX_RELAY_INTERVAL_MS: '20', WEBHOOK_RETRY_BASE_MS: '1', WEBHOOK_SWEEP_INTERVAL_MS: '100', WEBHOOK_SWEEP_GRACE_MS: '0' };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

async function waitFor<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

const sum = (values: (number | null)[]) => values.reduce<number>((total, value) => total + (value ?? 0), 0);

jest.setTimeout(180_000);

/**
 * The operator console in a real browser (issue 17 item 6, "Done when"): Debian's Chromium driven by
 * playwright-core against the api listening on a port (real PostgreSQL and Redis) and a real worker
 * delivering webhooks to an HTTPS receiver on loopback. Log in, create a key from a preset, send traffic
 * with it, revoke it, read the charts that show that traffic (the data Chart.js holds, and the JSON the
 * page embeds), redeliver a webhook delivery, log out; a wrong token is refused; a form without its
 * CSRF token is refused (403). Every request of the pages stays on the api, nothing breaks the CSP.
 */
describe('the operator console in headless Chromium', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let receiver: HttpsReceiver;
  let certificate: TestCertificate;
  let browser: Browser;
  let account: ProvisionedAccount;
  let base: string;

  beforeAll(async () => {
    certificate = generateCertificate();
    receiver = await HttpsReceiver.start(certificate);
    const env = { WEBHOOK_CA_FILE: certificate.certFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    api = await TestApi.start({ ...env, PUBLIC_BASE_URL: base });
    await api.app.listen({ port, host: '127.0.0.1' });
    worker = await createWorker(api.services.config({ ...env, ...WORKER_ENV }));
    account = await api.provision(webhooksBlueprint({ name: 'Rénovations Lavoie & Fils' }));
    await api.provision({ name: 'Toitures Gagnon' });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    if (SHOOT) mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.close().catch(() => undefined);
    await receiver?.stop();
    await api?.close();
    certificate?.remove();
  });

  /** A fresh browser context (own cookies) and page that records every request and every problem. */
  async function openPage(): Promise<{ context: BrowserContext; page: Page; requests: string[]; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of (401|403)/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return { context, page, requests, problems };
  }

  async function logIn(page: Page, token = TEST_ADMIN_TOKEN): Promise<number | undefined> {
    await page.goto(`${base}/console`);
    await page.waitForURL(`${base}/console/login`);
    await page.locator('#token').fill(token);
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url() === `${base}/console/login` && response.request().method() === 'POST'),
      page.locator('#login').click(),
    ]);
    await page.waitForLoadState();
    return answer.status();
  }

  /** Lets the usage writes of finished requests reach Redis, then aggregates the hour buckets (the worker's job, run now). */
  async function aggregateUsage(): Promise<void> {
    await new Promise((wake) => setTimeout(wake, 20));
    await (api.app.get(UsageRecorder) as UsageRecorder & { flush?: () => Promise<void> }).flush?.();
    await api.app.get(CommandBus).execute(new AggregateUsageCommand());
  }

  /** What a drawn chart holds: Chart.js's own datasets of the canvas. */
  async function chartData(page: Page, id: string): Promise<{ labels: string[]; datasets: { label: string; data: (number | null)[] }[] }> {
    await page.locator(`#${id}[data-drawn="true"]`).waitFor();
    return page.evaluate((canvasId) => {
      // runs in the page; the workspace compiles without the DOM library, so the page's globals are typed here
      const scope = globalThis as unknown as {
        Chart: { getChart(canvas: unknown): { data: { labels: string[]; datasets: { label: string; data: (number | null)[] }[] } } };
        document: { getElementById(id: string): unknown };
      };
      const chart = scope.Chart.getChart(scope.document.getElementById(canvasId));
      return { labels: chart.data.labels, datasets: chart.data.datasets.map((dataset) => ({ label: dataset.label, data: dataset.data })) };
    }, id);
  }

  it('a wrong token is refused: 401, the login form again, no session cookie', async () => {
    const { context, page, problems } = await openPage();
    try {
      expect(await logIn(page, 'not-the-admin-token')).toBe(401);
      expect(page.url()).toBe(`${base}/console/login`);
      await expect(page.locator('.notice.error').textContent()).resolves.toBe('Jeton refusé.');
      expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('lf_console_session');
      if (SHOOT) await page.screenshot({ path: resolve(SCREENSHOTS, 'console-login.png') });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('log in, create a key from a preset (secret shown once), send traffic with it, revoke it, read the charts that show the traffic, redeliver a webhook, log out', async () => {
    const { context, page, requests, problems } = await openPage();
    try {
      // Log in: 303 to the accounts; the session cookie is HttpOnly, SameSite=Strict, on /console.
      expect(await logIn(page)).toBe(303);
      expect(page.url()).toBe(`${base}/console`);
      const session = (await context.cookies()).find((cookie) => cookie.name === 'lf_console_session')!;
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console', secure: false });
      expect(session.value).not.toContain(TEST_ADMIN_TOKEN);
      await expect(page.locator('h1').textContent()).resolves.toBe('Comptes');
      expect(await page.locator('tr.account').count()).toBe(2);
      if (SHOOT) await page.screenshot({ path: resolve(SCREENSHOTS, 'console-accounts.png') });

      // Open the account; create a key from the lead_capture preset.
      await page.getByRole('link', { name: 'Rénovations Lavoie & Fils' }).click();
      await page.waitForURL(`${base}/console/accounts/${account.account_id}`);
      await page.locator('form.new-key input[name="name"]').fill('navigateur');
      await page.locator('form.new-key select[name="preset"]').selectOption('full_integration');
      await page.locator('#create-key').click();
      await page.locator('#new-key-secret').waitFor();
      const secret = (await page.locator('#new-key-secret').textContent())!;
      const keyId = (await page.locator('#new-key-secret').getAttribute('data-key-id'))!;
      expect(secret).toMatch(/^lf_live_[A-Za-z0-9]{8}_[A-Za-z0-9]{32,}$/);
      if (SHOOT) await page.screenshot({ path: resolve(SCREENSHOTS, 'console-key-created.png') });

      // Traffic with the new key: 6 requests answered 200, 3 answered 404.
      for (let index = 0; index < 6; index += 1) expectStatus(await api.request({ path: '/v1/me', token: secret }), 200);
      for (let index = 0; index < 3; index += 1) expectStatus(await api.request({ path: '/v1/contacts/6f1c8a52-3a0e-4c55-9a51-4f1b7c1d2e3f', token: secret }), 404);
      // And a webhook delivery to the receiver: the full key subscribes, a contact is created.
      expectStatus(
        await api.request({ method: 'POST', path: '/v1/webhooks', token: account.api_keys.full.key, body: { url: receiver.url('/console'), events: ['contact_created'] } }),
        201,
      );
      await createContact(api, account.api_keys.full.key, { email: 'console@example.com', first_name: 'Nadia' });
      await waitFor(() => receiver.at('/console').length, (count) => count === 1, 'the first delivery');
      await waitFor(
        async () => (await api.admin('GET', `/accounts/${account.account_id}/webhook-deliveries`)).body.data?.[0]?.status,
        (status) => status === 'succeeded',
        'the delivery recorded as succeeded',
      );
      await aggregateUsage();

      // Back to the account: the key is listed with its last use; revoke it (303, notice), it answers 401 at once.
      await page.locator('#back-to-account').click();
      await page.waitForURL(`${base}/console/accounts/${account.account_id}`);
      const row = page.locator(`tr.api-key[data-key-id="${keyId}"]`);
      expect(await row.getAttribute('data-state')).toBe('active');
      expect(await row.locator('td.last-used').textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
      const [revoke] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith(`/api-keys/${keyId}/revoke`)),
        row.locator(`button[data-revoke="${keyId}"]`).click(),
      ]);
      expect(revoke.status()).toBe(303);
      await page.waitForURL(`${base}/console/accounts/${account.account_id}?done=revoked`);
      await expect(page.locator('.notice.ok').textContent()).resolves.toBe('La clé a été révoquée.');
      expect(await page.locator(`tr.api-key[data-key-id="${keyId}"]`).getAttribute('data-state')).toBe('revoked');
      expect((await api.request({ path: '/v1/me', token: secret })).status).toBe(401);

      // The account's charts show the traffic: the embedded series and what Chart.js drew agree.
      const embedded = JSON.parse((await page.locator('#usage-data').textContent())!) as { requests: number[]; status_4xx: number[]; totals: { request_count: number } };
      expect(embedded.totals.request_count).toBeGreaterThanOrEqual(10); // 9 with the new key, the subscription and the contact with the full key
      const requestsChart = await chartData(page, 'chart-requests');
      expect(requestsChart.labels).toHaveLength(24);
      expect(sum(requestsChart.datasets[0]!.data)).toBe(embedded.totals.request_count);
      expect(requestsChart.datasets[0]!.data).toEqual(embedded.requests);
      const errorsChart = await chartData(page, 'chart-errors');
      expect(errorsChart.datasets.map((dataset) => dataset.label)).toEqual(['4xx', '5xx', '429 (limite)', 'inconnu']);
      expect(sum(errorsChart.datasets[0]!.data)).toBe(3);
      const latencyChart = await chartData(page, 'chart-latency');
      expect(latencyChart.datasets.map((dataset) => dataset.label)).toEqual(['p50', 'p95', 'p99']);
      expect(latencyChart.datasets[2]!.data.filter((value) => value !== null).length).toBeGreaterThan(0);

      // The webhook section lists the subscription and the delivery; redeliver it: 303, a second request with the same webhook-id.
      expect(await page.locator('tr.subscription').count()).toBe(1);
      const delivery = page.locator('tr.delivery').first();
      expect(await delivery.locator('td.status').textContent()).toBe('succeeded');
      if (SHOOT) await page.screenshot({ path: resolve(SCREENSHOTS, 'console-account.png'), fullPage: true });
      const [redeliver] = await Promise.all([page.waitForResponse((response) => response.url().endsWith('/redeliver')), delivery.locator('button[data-redeliver]').click()]);
      expect(redeliver.status()).toBe(303);
      await page.waitForURL(`${base}/console/accounts/${account.account_id}?done=redelivered`);
      await expect(page.locator('.notice.ok').textContent()).resolves.toBe('Nouvelle tentative de livraison planifiée.');
      const [first, second] = await waitFor(() => receiver.at('/console'), (received) => received.length === 2, 'the redelivery');
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);

      // The key's own page: its charts hold exactly its 9 requests, 3 of them 404.
      await page.goto(`${base}/console/accounts/${account.account_id}/api-keys/${keyId}`);
      const keySeries = JSON.parse((await page.locator('#usage-data').textContent())!) as { scope: string; totals: { request_count: number; status_2xx: number; status_4xx: number } };
      expect(keySeries).toMatchObject({ scope: 'key', totals: { request_count: 9, status_2xx: 6, status_4xx: 3 } });
      expect(sum((await chartData(page, 'chart-requests')).datasets[0]!.data)).toBe(9);
      expect(sum((await chartData(page, 'chart-errors')).datasets[0]!.data)).toBe(3);
      await expect(page.locator('#usage-totals').getAttribute('data-request-count')).resolves.toBe('9');
      if (SHOOT) await page.screenshot({ path: resolve(SCREENSHOTS, 'console-key.png'), fullPage: true });

      // English: the same page with ?lang=en.
      await page.goto(`${base}/console/accounts/${account.account_id}/api-keys/${keyId}?lang=en`);
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      await expect(page.locator('figcaption').first().textContent()).resolves.toBe('Requests per hour');

      // Log out: 303 to the login form; the console asks for the token again.
      await page.goto(`${base}/console`);
      const [out] = await Promise.all([page.waitForResponse((response) => response.url() === `${base}/console/logout`), page.locator('#logout').click()]);
      expect(out.status()).toBe(303);
      await page.waitForURL(`${base}/console/login`);
      await page.goto(`${base}/console`);
      await page.waitForURL(`${base}/console/login`);

      expect(requests.filter((url) => !url.startsWith(base) && !url.startsWith('data:'))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a form whose CSRF token was removed is refused with 403 and does nothing', async () => {
    const { context, page } = await openPage();
    try {
      expect(await logIn(page)).toBe(303);
      await page.goto(`${base}/console/accounts/${account.account_id}`);
      await page.locator('form.new-key input[name="csrf"]').evaluate((input) => input.remove());
      await page.locator('form.new-key input[name="name"]').fill('sans-csrf');
      const [answer] = await Promise.all([page.waitForResponse((response) => response.url().endsWith('/api-keys')), page.locator('#create-key').click()]);
      expect(answer.status()).toBe(403);
      await expect(page.locator('.notice.error').textContent()).resolves.toContain('anti-CSRF');
      const keys = await sqlOf(api).query<{ name: string }>('SELECT name FROM accounts.api_keys WHERE account_id = $1', [account.account_id]);
      expect(keys.map((key) => key.name)).not.toContain('sans-csrf');
    } finally {
      await context.close();
    }
  });
});
