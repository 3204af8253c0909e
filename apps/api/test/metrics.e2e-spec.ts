import { randomUUID } from 'node:crypto';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { sampleValue, samplesOf } from './support/prometheus-text';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * The api's `GET /metrics` (issue 17, item 1) on the real app, PostgreSQL and Redis: request counters and
 * latency histograms by route template (never the URL with its ids), method and status; auth failures by
 * reason; quota refusals by limit type and code; Node's process metrics; `METRICS_TOKEN` enforced when set.
 * (Run alone the api serves its own registry; the cluster sum under `npm start` is tools/scripts/cluster-metrics.spec.mjs's.)
 */
describe('GET /metrics on the api', () => {
  let api: TestApi;
  let account: ProvisionedAccount;

  const scrape = async () => {
    const response = await api.request({ path: '/metrics' });
    expect(response.status).toBe(200);
    return response.raw.body;
  };
  const requests = (text: string, method: string, route: string, status: number) =>
    sampleValue(text, 'leadflow_http_requests_total', { method, route, status: String(status) }) ?? 0;

  beforeAll(async () => {
    api = await TestApi.start();
    account = await api.provision({
      api_keys: [
        { name: 'full', preset: 'full_integration' },
        { name: 'capture', preset: 'lead_capture' },
        { name: 'two', preset: 'full_integration', per_hour: 2 },
      ],
    });
  });
  afterAll(() => api.close());

  it('answers the Prometheus text format without authentication while METRICS_TOKEN is unset, outside the quota', async () => {
    const response = await api.request({ path: '/metrics' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    expect(response.raw.body).toContain('# TYPE leadflow_http_requests_total counter');
    expect(response.raw.body).toContain('# TYPE leadflow_http_request_duration_seconds histogram');
  });

  it('a request to /v1/me increments the counter of route "/v1/me" (GET, 200) by one and lands in its latency histogram', async () => {
    const before = await scrape();
    const response = await api.request({ path: '/v1/me', token: account.api_keys.full.key });
    expect(response.status).toBe(200);
    const after = await scrape();
    expect(requests(after, 'GET', '/v1/me', 200) - requests(before, 'GET', '/v1/me', 200)).toBe(1);
    const labels = { method: 'GET', route: '/v1/me', status: '200' };
    const count = sampleValue(after, 'leadflow_http_request_duration_seconds_count', labels);
    expect(count).toBe(requests(after, 'GET', '/v1/me', 200));
    expect(sampleValue(after, 'leadflow_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(count);
    expect(sampleValue(after, 'leadflow_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
  });

  it('routes are labelled by their template: ids never reach a label; a path no route matches is "unmatched"', async () => {
    const id = randomUUID();
    expect((await api.request({ path: `/v1/contacts/${id}`, token: account.api_keys.full.key })).status).toBe(404);
    expect((await api.request({ path: `/no-such-path/${id}` })).status).toBe(404);
    const text = await scrape();
    expect(requests(text, 'GET', '/v1/contacts/:id', 404)).toBe(1);
    expect(requests(text, 'GET', 'unmatched', 404)).toBe(1);
    expect(text).not.toContain(id);
  });

  it('auth failures are counted by reason: invalid_api_key, invalid_admin_token, insufficient_scope', async () => {
    const failures = (text: string, reason: string) => sampleValue(text, 'leadflow_auth_failures_total', { reason }) ?? 0;
    const before = await scrape();
    expect((await api.request({ path: '/v1/me', token: 'lf_live_wrong' })).status).toBe(401);
    expect((await api.request({ path: '/v1/me' })).status).toBe(401);
    expect((await api.request({ method: 'POST', path: '/admin/v1/accounts', token: `${TEST_ADMIN_TOKEN}-wrong`, body: {} })).status).toBe(401);
    const scope = await api.request({ path: '/v1/contacts', token: account.api_keys.capture.key });
    expect(scope.status).toBe(403);
    expect(scope.body.code).toBe('insufficient_scope');
    const after = await scrape();
    expect(failures(after, 'invalid_api_key') - failures(before, 'invalid_api_key')).toBe(2);
    expect(failures(after, 'invalid_admin_token') - failures(before, 'invalid_admin_token')).toBe(1);
    expect(failures(after, 'insufficient_scope') - failures(before, 'insufficient_scope')).toBe(1);
    expect(requests(after, 'GET', '/v1/me', 401) - requests(before, 'GET', '/v1/me', 401)).toBe(2);
    // An authentication failure is no quota refusal.
    expect(samplesOf(after, 'leadflow_quota_refusals_total')).toEqual([]);
  });

  it('quota refusals are counted by limit_type and code: the third request of a 2-per-hour key', async () => {
    const key = account.api_keys.two.key;
    expect((await api.request({ path: '/v1/me', token: key })).status).toBe(200);
    expect((await api.request({ path: '/v1/me', token: key })).status).toBe(200);
    const refused = await api.request({ path: '/v1/me', token: key });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limit_exceeded');
    expect(refused.body.details.limit_type).toBe('per_key');
    const text = await scrape();
    expect(sampleValue(text, 'leadflow_quota_refusals_total', { limit_type: 'per_key', code: 'rate_limit_exceeded' })).toBe(1);
    expect(requests(text, 'GET', '/v1/me', 429)).toBe(1);
  });

  it('brute force: the address blocked after 30 failed authentications counts as auth failure brute_force, not as a quota refusal', async () => {
    const address = '203.0.113.77';
    for (let i = 0; i < 30; i++) expect((await api.request({ path: '/v1/me', token: `lf_live_guess${i}`, remoteAddress: address })).status).toBe(401);
    const blocked = await api.request({ path: '/v1/me', token: 'lf_live_guess', remoteAddress: address });
    expect(blocked.status).toBe(429);
    expect(blocked.body.details.limit_type).toBe('brute_force');
    const text = await scrape();
    expect(sampleValue(text, 'leadflow_auth_failures_total', { reason: 'brute_force' })).toBe(1);
    expect(sampleValue(text, 'leadflow_quota_refusals_total', { limit_type: 'brute_force', code: 'rate_limit_exceeded' })).toBeUndefined();
  });

  it("exposes Node's default process metrics", async () => {
    const text = await scrape();
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(samplesOf(text, name).length).toBeGreaterThan(0);
    }
  });

  describe('with METRICS_TOKEN set', () => {
    let guarded: TestApi;
    const TOKEN = 'metrics-token-0123456789';

    beforeAll(async () => {
      guarded = await TestApi.start({ METRICS_TOKEN: TOKEN });
    });
    afterAll(() => guarded.close());

    it('401 without the bearer token or with a wrong one (WWW-Authenticate: Bearer), 200 with it', async () => {
      for (const token of [undefined, 'wrong', `${TOKEN}x`, TOKEN.slice(0, -1)]) {
        const refused = await guarded.request({ path: '/metrics', token });
        expect(refused.status).toBe(401);
        expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        expect(refused.raw.body).not.toContain('leadflow_http_requests_total');
      }
      const basic = await guarded.request({ path: '/metrics', headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` } });
      expect(basic.status).toBe(401);
      const allowed = await guarded.request({ path: '/metrics', token: TOKEN });
      expect(allowed.status).toBe(200);
      // The refused scrapes were requests too: counted under their route and status.
      expect(sampleValue(allowed.raw.body, 'leadflow_http_requests_total', { method: 'GET', route: '/metrics', status: '401' })).toBe(5);
    });
  });
});
