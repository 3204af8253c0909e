import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { RedisConnection } from '@leadflow/shared-platform';
import { sqlOf } from './support/sql';
import { RequestOptions, TestApi, TestResponse } from './support/test-api';

const SOME_ID = '6f1c8a52-3a0e-4c55-9a51-4f1b7c1d2e3f';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** `name=value` of each Set-Cookie of a response. */
function setCookies(response: TestResponse): string[] {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

function cookieValue(response: TestResponse, name: string): string | undefined {
  const cookie = setCookies(response).find((line) => line.startsWith(`${name}=`));
  return cookie?.slice(name.length + 1).split(';')[0];
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

/** The operator console's rules over HTTP (issue 17 item 6; README › Operator console). The browser suite drives the same pages in Chromium. */
describe('operator console (/console)', () => {
  describe('ADMIN_TOKEN unset', () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await TestApi.start({ ADMIN_TOKEN: '' });
    });
    afterAll(() => api.close());

    it.each([
      ['GET', '/console'],
      ['GET', '/console/login'],
      ['POST', '/console/login'],
      ['GET', `/console/accounts/${SOME_ID}`],
      ['GET', '/console/assets/chart.umd.min.js'],
      ['PUT', '/console'],
    ] as const)('the console does not exist: %s %s answers the JSON 404 of an unknown route', async (method, path) => {
      const response = await api.request({ method, path, rawBody: method === 'POST' ? 'token=x' : undefined, headers: method === 'POST' ? FORM : {} });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'not_found', details: null });
      expect(response.headers.allow).toBeUndefined();
    });
  });

  describe('ADMIN_TOKEN set', () => {
    let api: TestApi;
    let accountA: string;
    let accountB: string;
    let keyOfB: string;

    beforeAll(async () => {
      api = await TestApi.start();
      accountA = (await api.provision({ name: 'Compte A' })).account_id;
      const b = await api.provision({ name: 'Compte <B> & "fils"' });
      accountB = b.account_id;
      keyOfB = b.api_keys.full.id;
    });
    afterAll(() => api.close());

    /** GET /console/login, then POST the token with the login CSRF cookie; returns the session cookie and the page's CSRF token. */
    async function login(options: { ip?: string } = {}): Promise<{ cookie: string; csrf: string }> {
      const form0 = await api.request({ path: '/console/login', remoteAddress: options.ip });
      const loginCookie = cookieValue(form0, 'lf_console_login')!;
      const response = await api.request({
        method: 'POST',
        path: '/console/login',
        rawBody: form({ token: TEST_ADMIN_TOKEN, csrf: csrfOf(form0.body)! }),
        headers: { ...FORM, cookie: `lf_console_login=${loginCookie}` },
        remoteAddress: options.ip,
      });
      expect(response.status).toBe(303);
      const cookie = `lf_console_session=${cookieValue(response, 'lf_console_session')}`;
      const page = await api.request({ path: '/console', headers: { cookie } });
      expect(page.status).toBe(200);
      return { cookie, csrf: csrfOf(page.body)! };
    }

    function get(path: string, cookie?: string): Promise<TestResponse> {
      return api.request({ path, headers: cookie ? { cookie } : {} });
    }

    function post(path: string, cookie: string | undefined, fields: Record<string, string>, extra: Partial<RequestOptions> = {}): Promise<TestResponse> {
      return api.request({ method: 'POST', path, rawBody: form(fields), headers: { ...FORM, ...(cookie ? { cookie } : {}) }, ...extra });
    }

    it('without a session, every page answers 303 to the login form (language kept)', async () => {
      for (const path of ['/console', `/console/accounts/${accountA}`, `/console/accounts/${accountA}/activity`]) {
        const response = await get(path);
        expect(response.status).toBe(303);
        expect(response.headers.location).toBe('/console/login');
      }
      expect((await get('/console?lang=en')).headers.location).toBe('/console/login?lang=en');
    });

    it('the login form: French by default, English with ?lang=en; helmet CSP, no-store; a login CSRF cookie HttpOnly, SameSite=Strict, Path=/console', async () => {
      const fr = await get('/console/login');
      expect(fr.status).toBe(200);
      expect(fr.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(fr.body).toContain('<html lang="fr">');
      expect(fr.body).toContain('Jeton opérateur');
      expect(fr.headers['cache-control']).toBe('no-store');
      expect(fr.headers['content-security-policy']).toContain("script-src 'self'");
      expect(fr.headers['content-security-policy']).not.toContain('unsafe-inline\'; script');
      const cookie = setCookies(fr).find((line) => line.startsWith('lf_console_login='))!;
      expect(cookie).toMatch(/; Path=\/console; Max-Age=3600; HttpOnly; SameSite=Strict$/);
      const en = await get('/console/login?lang=en');
      expect(en.body).toContain('<html lang="en">');
      expect(en.body).toContain('Operator token');
    });

    it('login: the right token opens a session whose cookie is an opaque id (never the token), HttpOnly, SameSite=Strict, Path=/console, 8 h; Secure behind an https proxy', async () => {
      const form0 = await get('/console/login');
      const response = await post('/console/login', `lf_console_login=${cookieValue(form0, 'lf_console_login')}`, { token: TEST_ADMIN_TOKEN, csrf: csrfOf(form0.body)! });
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe('/console');
      const session = setCookies(response).find((line) => line.startsWith('lf_console_session='))!;
      expect(session).toMatch(/^lf_console_session=[A-Za-z0-9_-]{43}; Path=\/console; Max-Age=28800; HttpOnly; SameSite=Strict$/);
      expect(session).not.toContain(TEST_ADMIN_TOKEN);
      // The session is stored in Redis by its hash, with the TTL.
      const redis = api.app.get(RedisConnection);
      const keys = await redis.client.keys(redis.key('console', 'session', '*'));
      expect(keys.length).toBeGreaterThan(0);
      expect(await redis.client.ttl(keys[0]!)).toBeGreaterThan(28_000);
      expect(keys.some((key) => key.includes(cookieValue(response, 'lf_console_session')!))).toBe(false);

      const behindProxy = await TestApi.start({ TRUST_PROXY: '127.0.0.1' });
      try {
        const page = await behindProxy.request({ path: '/console/login', headers: { 'x-forwarded-proto': 'https' } });
        expect(setCookies(page).find((line) => line.startsWith('lf_console_login='))).toMatch(/; Secure$/);
        const answer = await behindProxy.request({
          method: 'POST',
          path: '/console/login',
          rawBody: form({ token: TEST_ADMIN_TOKEN, csrf: csrfOf(page.body)! }),
          headers: { ...FORM, 'x-forwarded-proto': 'https', cookie: `lf_console_login=${cookieValue(page, 'lf_console_login')}` },
        });
        expect(setCookies(answer).find((line) => line.startsWith('lf_console_session='))).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
      } finally {
        await behindProxy.close();
      }
    });

    it('login: a wrong token is refused (401, no session cookie); the login CSRF token missing or wrong → 403, token not even tried', async () => {
      const form0 = await get('/console/login', undefined);
      const loginCookie = `lf_console_login=${cookieValue(form0, 'lf_console_login')}`;
      const wrong = await post('/console/login', loginCookie, { token: 'not-the-token', csrf: csrfOf(form0.body)! }, { remoteAddress: '10.1.0.1' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toContain('Jeton refusé.');
      expect(cookieValue(wrong, 'lf_console_session')).toBeUndefined();
      const noCsrf = await post('/console/login', loginCookie, { token: TEST_ADMIN_TOKEN }, { remoteAddress: '10.1.0.2' });
      expect(noCsrf.status).toBe(403);
      expect(cookieValue(noCsrf, 'lf_console_session')).toBeUndefined();
      const noCookie = await post('/console/login', undefined, { token: TEST_ADMIN_TOKEN, csrf: csrfOf(form0.body)! }, { remoteAddress: '10.1.0.2' });
      expect(noCookie.status).toBe(403);
    });

    it('login brute force: from the 11th wrong token of an address within 10 minutes, 429 with Retry-After, the right token included; other addresses unaffected', async () => {
      const ip = '10.2.0.1';
      const form0 = await api.request({ path: '/console/login', remoteAddress: ip });
      const cookie = `lf_console_login=${cookieValue(form0, 'lf_console_login')}`;
      const csrf = csrfOf(form0.body)!;
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        expect((await post('/console/login', cookie, { token: `wrong-${attempt}`, csrf }, { remoteAddress: ip })).status).toBe(401);
      }
      const blocked = await post('/console/login', cookie, { token: TEST_ADMIN_TOKEN, csrf }, { remoteAddress: ip });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(cookieValue(blocked, 'lf_console_session')).toBeUndefined();
      await login({ ip: '10.2.0.2' });
    });

    it('CSRF: a POST without the session’s token, or with another, is 403 and does nothing (key not created, not revoked)', async () => {
      const { cookie } = await login();
      const other = await login();
      const before = await sqlOf(api).query<{ count: number }>('SELECT count(*)::int AS count FROM accounts.api_keys WHERE account_id = $1', [accountA]);
      const missing = await post(`/console/accounts/${accountA}/api-keys`, cookie, { name: 'sans-csrf', preset: 'lead_capture' });
      expect(missing.status).toBe(403);
      expect(missing.body).toContain('anti-CSRF');
      const foreign = await post(`/console/accounts/${accountA}/api-keys`, cookie, { name: 'autre-csrf', preset: 'lead_capture', csrf: other.csrf });
      expect(foreign.status).toBe(403);
      const revoke = await post(`/console/accounts/${accountB}/api-keys/${keyOfB}/revoke`, cookie, {});
      expect(revoke.status).toBe(403);
      const after = await sqlOf(api).query<{ count: number }>('SELECT count(*)::int AS count FROM accounts.api_keys WHERE account_id = $1', [accountA]);
      expect(after).toEqual(before);
      expect((await sqlOf(api).query<{ revoked_at: Date | null }>('SELECT revoked_at FROM accounts.api_keys WHERE id = $1', [keyOfB]))[0]!.revoked_at).toBeNull();
      // Without any session: 401 with the login form.
      const anonymous = await post(`/console/accounts/${accountA}/api-keys`, undefined, { name: 'anonyme', preset: 'lead_capture', csrf: other.csrf });
      expect(anonymous.status).toBe(401);
    });

    it('accounts list and account page escape every value (an account named with markup)', async () => {
      const { cookie } = await login();
      const list = await get('/console', cookie);
      expect(list.body).toContain('Compte &lt;B&gt; &amp; &quot;fils&quot;');
      expect(list.body).not.toContain('Compte <B>');
      const page = await get(`/console/accounts/${accountB}`, cookie);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<h1 id="account-name">Compte &lt;B&gt; &amp; &quot;fils&quot;</h1>');
      expect(page.body).toContain('<script src="/console/assets/chart.umd.min.js" defer></script>');
      expect(page.body).not.toMatch(/<script>(?!<)/);
    });

    it('create a key from a preset: 200 with the raw key shown once; revoke: 303, the key answers 401 at once', async () => {
      const { cookie, csrf } = await login();
      const created = await post(`/console/accounts/${accountA}/api-keys`, cookie, { name: 'console-capture', preset: 'lead_capture', per_hour: '500', csrf });
      expect(created.status).toBe(200);
      const secret = /id="new-key-secret"[^>]*>([^<]+)</.exec(created.body)![1]!;
      expect(secret).toMatch(/^lf_live_[A-Za-z0-9]{8}_[A-Za-z0-9]{32,}$/);
      const keyId = /id="new-key-secret" class="secret" data-key-id="([^"]+)"/.exec(created.body)![1]!;
      const me = await api.request({ path: '/v1/me', token: secret });
      expect(me.status).toBe(200);
      expect(me.body.data).toMatchObject({ key_name: 'console-capture', preset: 'lead_capture', rate_limits: { per_hour: 500 } });
      const page = await get(`/console/accounts/${accountA}`, cookie);
      expect(page.body).toContain(`data-key-id="${keyId}" data-state="active"`);
      expect(page.body).not.toContain(secret);

      const revoked = await post(`/console/accounts/${accountA}/api-keys/${keyId}/revoke`, cookie, { csrf });
      expect(revoked.status).toBe(303);
      expect(revoked.headers.location).toBe(`/console/accounts/${accountA}?done=revoked`);
      expect((await api.request({ path: '/v1/me', token: secret })).status).toBe(401);
      expect((await get(`/console/accounts/${accountA}`, cookie)).body).toContain(`data-key-id="${keyId}" data-state="revoked"`);
      const activity = await api.admin('GET', `/accounts/${accountA}/activity?type=api_key_revoked`);
      expect(activity.body.data[0]).toMatchObject({ type: 'api_key_revoked', actor: { type: 'operator' } });
    });

    it('refused key input (name empty, with a control character, unknown preset, quota out of range): 400 page with the reason, nothing written', async () => {
      const { cookie, csrf } = await login();
      const count = () => sqlOf(api).query<{ count: number }>('SELECT count(*)::int AS count FROM accounts.api_keys WHERE account_id = $1', [accountA]);
      const before = await count();
      const refused: Record<string, string>[] = [
        { name: '', preset: 'lead_capture' },
        { name: 'nul\u0000', preset: 'lead_capture' },
        { name: 'ok', preset: 'everything' },
        { name: 'ok', preset: 'lead_capture', per_hour: '0' },
        { name: 'ok', preset: 'lead_capture', per_hour: 'abc' },
      ];
      for (const fields of refused) {
        const response = await post(`/console/accounts/${accountA}/api-keys`, cookie, { ...fields, csrf });
        expect(response.status).toBe(400);
        expect(response.body).toContain('class="notice error"');
      }
      expect(await count()).toEqual(before);
      // The same name as a live key: 409 with the reason.
      await post(`/console/accounts/${accountA}/api-keys`, cookie, { name: 'doublon', preset: 'lead_capture', csrf });
      expect((await post(`/console/accounts/${accountA}/api-keys`, cookie, { name: 'doublon', preset: 'lead_capture', csrf })).status).toBe(409);
    });

    it('tenant isolation: another account’s key answers like a missing one (page and revoke 404, key untouched); unknown or malformed ids 404', async () => {
      const { cookie, csrf } = await login();
      const foreignPage = await get(`/console/accounts/${accountA}/api-keys/${keyOfB}`, cookie);
      const missingPage = await get(`/console/accounts/${accountA}/api-keys/${SOME_ID}`, cookie);
      expect([foreignPage.status, missingPage.status]).toEqual([404, 404]);
      const foreignRevoke = await post(`/console/accounts/${accountA}/api-keys/${keyOfB}/revoke`, cookie, { csrf });
      const missingRevoke = await post(`/console/accounts/${accountA}/api-keys/${SOME_ID}/revoke`, cookie, { csrf });
      expect([foreignRevoke.status, missingRevoke.status]).toEqual([404, 404]);
      expect((await sqlOf(api).query<{ revoked_at: Date | null }>('SELECT revoked_at FROM accounts.api_keys WHERE id = $1', [keyOfB]))[0]!.revoked_at).toBeNull();
      for (const path of [`/console/accounts/${SOME_ID}`, '/console/accounts/nope', `/console/accounts/${accountA}/api-keys/nope`]) {
        const response = await get(path, cookie);
        expect(response.status).toBe(404);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      }
      expect((await get('/console/accounts/nope?lang=en', cookie)).body).toContain('Not found');
    });

    it('bad cursor: 400 page, not a 500', async () => {
      const { cookie } = await login();
      expect((await get('/console?cursor=%%%', cookie)).status).toBe(400);
      expect((await get(`/console/accounts/${accountA}/activity?cursor=zzz`, cookie)).status).toBe(400);
    });

    it('logout closes the session at once (the cookie no longer opens pages) and answers 303 to the login form', async () => {
      const { cookie, csrf } = await login();
      const out = await post('/console/logout', cookie, { csrf });
      expect(out.status).toBe(303);
      expect(out.headers.location).toBe('/console/login');
      expect(setCookies(out).find((line) => line.startsWith('lf_console_session='))).toMatch(/^lf_console_session=; Path=\/console; Max-Age=0;/);
      expect((await get('/console', cookie)).status).toBe(303);
    });

    it('assets: Chart.js and the console script served by the api (JavaScript, cached an hour)', async () => {
      const chart = await get('/console/assets/chart.umd.min.js');
      expect(chart.status).toBe(200);
      expect(chart.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(chart.raw.body).toContain('Chart.js v4.6.1');
      const script = await get('/console/assets/console.js');
      expect(script.raw.body).toContain("getElementById('usage-data')");
      expect((await get('/console/assets/console.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    });
  });
});
