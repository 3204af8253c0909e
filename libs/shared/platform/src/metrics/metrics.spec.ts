import { DomainError } from '@leadflow/shared-kernel';
import { AppConfig, ConfigError } from '../config/app-config';
import { quotaExceeded } from '../http/rate-limits';
import { HttpMetrics, UNMATCHED_ROUTE } from './http-metrics';
import { metricsScrapeAllowed } from './metrics-token';

/** Unit rules of the metrics (issue 17, item 1): the scrape token, the refusal classification, the two variables. */
describe('metrics', () => {
  describe('metricsScrapeAllowed (METRICS_TOKEN)', () => {
    it('open when METRICS_TOKEN is unset, whatever is sent', () => {
      expect(metricsScrapeAllowed(undefined, null)).toBe(true);
      expect(metricsScrapeAllowed('Bearer anything', null)).toBe(true);
    });

    it('with a token: only "Bearer <token>" (scheme case-insensitive) is allowed', () => {
      expect(metricsScrapeAllowed('Bearer s3cret', 's3cret')).toBe(true);
      expect(metricsScrapeAllowed('bearer s3cret ', 's3cret')).toBe(true);
      for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Bearer s3cre', 'Bearer s3cretx', 'Basic s3cret', 's3cret', 'Bearer s3cret extra']) {
        expect(metricsScrapeAllowed(header, 's3cret')).toBe(false);
      }
      expect(metricsScrapeAllowed(['Bearer s3cret'], 's3cret')).toBe(false);
    });
  });

  describe('HttpMetrics.record', () => {
    const metrics = () => new HttpMetrics({ defaultMetrics: false });
    const value = async (m: HttpMetrics, name: string, labels: Record<string, string>) =>
      (await m.registry.getSingleMetric(name)!.get()).values.find((sample) => JSON.stringify(sample.labels) === JSON.stringify(labels))?.value;

    it('counts by route template, method and status; no route: "unmatched"', async () => {
      const m = metrics();
      m.record('GET', '/v1/contacts/:id', 200, 1.5, undefined);
      m.record('GET', '/v1/contacts/:id', 200, 3.5, undefined);
      m.record('GET', undefined, 404, 0.3, undefined);
      expect(await value(m, 'leadflow_http_requests_total', { method: 'GET', route: '/v1/contacts/:id', status: '200' })).toBe(2);
      expect(await value(m, 'leadflow_http_requests_total', { method: 'GET', route: UNMATCHED_ROUTE, status: '404' })).toBe(1);
      const text = await m.registry.metrics();
      expect(text).toContain('leadflow_http_request_duration_seconds_count{method="GET",route="/v1/contacts/:id",status="200"} 2');
      expect(text).toContain('leadflow_http_request_duration_seconds_bucket{le="0.001",method="GET",route="/v1/contacts/:id",status="200"} 0');
      expect(text).toContain('leadflow_http_request_duration_seconds_bucket{le="0.0025",method="GET",route="/v1/contacts/:id",status="200"} 1');
    });

    it('401/403 with an auth code count as auth failures by reason; 429 brute_force too; other 429s are quota refusals', async () => {
      const m = metrics();
      m.record('GET', '/v1/me', 401, 1, new DomainError('invalid_api_key', 'x', null));
      m.record('POST', '/admin/v1/accounts', 401, 1, new DomainError('invalid_admin_token', 'x', null));
      m.record('GET', '/v1/contacts', 403, 1, new DomainError('insufficient_scope', 'x', { required_scope: 'contacts:read' }));
      m.record('GET', '/v1/me', 429, 1, quotaExceeded('brute_force', 60));
      m.record('GET', '/v1/me', 429, 1, quotaExceeded('per_key', 60));
      m.record('POST', '/v1/leads', 429, 1, new DomainError('rate_limited_ip', 'x', { limit_type: 'per_ip', retry_after_seconds: 5 }));
      m.record('POST', '/v1/emails/test', 429, 1, new DomainError('test_quota_exceeded', 'x', null));
      // A 403 or 401 that is not about credentials, and a refusal without a rendered error, count nowhere.
      m.record('GET', '/v1/x', 403, 1, new DomainError('forbidden_thing', 'x', null));
      m.record('GET', '/v1/x', 429, 1, undefined);
      expect(await value(m, 'leadflow_auth_failures_total', { reason: 'invalid_api_key' })).toBe(1);
      expect(await value(m, 'leadflow_auth_failures_total', { reason: 'invalid_admin_token' })).toBe(1);
      expect(await value(m, 'leadflow_auth_failures_total', { reason: 'insufficient_scope' })).toBe(1);
      expect(await value(m, 'leadflow_auth_failures_total', { reason: 'brute_force' })).toBe(1);
      expect((await m.registry.getSingleMetric('leadflow_auth_failures_total')!.get()).values).toHaveLength(4);
      expect(await value(m, 'leadflow_quota_refusals_total', { limit_type: 'per_key', code: 'rate_limit_exceeded' })).toBe(1);
      expect(await value(m, 'leadflow_quota_refusals_total', { limit_type: 'per_ip', code: 'rate_limited_ip' })).toBe(1);
      expect(await value(m, 'leadflow_quota_refusals_total', { limit_type: 'none', code: 'test_quota_exceeded' })).toBe(1);
      expect((await m.registry.getSingleMetric('leadflow_quota_refusals_total')!.get()).values).toHaveLength(3);
    });

    it('each app instance has its own registry (two apps in one process do not clash)', () => {
      expect(() => [new HttpMetrics({ defaultMetrics: false }), new HttpMetrics({ defaultMetrics: false })]).not.toThrow();
    });
  });

  describe('METRICS_TOKEN and WORKER_METRICS_PORT in AppConfig', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        new AppConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };

    it('unset or empty: open metrics and no worker listener', () => {
      expect(new AppConfig({}).metricsToken).toBeNull();
      expect(new AppConfig({}).workerMetricsPort).toBeNull();
      expect(new AppConfig({ METRICS_TOKEN: '', WORKER_METRICS_PORT: '' })).toMatchObject({ metricsToken: null, workerMetricsPort: null });
      expect(new AppConfig({ METRICS_TOKEN: 't', WORKER_METRICS_PORT: '9464' })).toMatchObject({ metricsToken: 't', workerMetricsPort: 9464 });
    });

    it('WORKER_METRICS_PORT=abc or 70000 is refused; the same port as WORKER_HEALTH_PORT is refused', () => {
      expect(problemsOf({ WORKER_METRICS_PORT: 'abc' })).toEqual(['WORKER_METRICS_PORT=abc: expected an integer between 0 and 65535, or empty']);
      expect(problemsOf({ WORKER_METRICS_PORT: '70000' })).toEqual(['WORKER_METRICS_PORT=70000: expected an integer between 0 and 65535, or empty']);
      expect(problemsOf({ WORKER_METRICS_PORT: '3100', WORKER_HEALTH_PORT: '3100' })).toEqual([
        "WORKER_METRICS_PORT=3100: expected a port other than WORKER_HEALTH_PORT's (two listeners)",
      ]);
      // 0 means any free port: both may ask for one.
      expect(problemsOf({ WORKER_METRICS_PORT: '0', WORKER_HEALTH_PORT: '0' })).toEqual([]);
    });
  });
});
