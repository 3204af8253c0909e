import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { DomainError } from '@leadflow/shared-kernel';

/** Latency buckets of `leadflow_http_request_duration_seconds` (seconds): the api answers most requests in about a millisecond. */
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Route label of a request the router matched to no route (404 on an unknown path): the raw URL is never a label. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Error codes that count as an authentication or authorisation refusal (`leadflow_auth_failures_total{reason}`). */
const AUTH_FAILURE_CODES = new Set(['invalid_api_key', 'invalid_admin_token', 'insufficient_scope', 'feature_not_available']);

type RequestLabels = 'method' | 'route' | 'status';

interface RequestSeries {
  labels: readonly [method: string, route: string, status: string];
  /** Requests answered: a plain number, turned into `leadflow_http_requests_total` when scraped. */
  count: number;
  duration: { observe(value: number): void };
}

/**
 * The api's Prometheus metrics (issue 17, item 1), in a registry of their own (one per app instance, so tests
 * may boot several apps in one process):
 * - `leadflow_http_requests_total{method,route,status}` and `leadflow_http_request_duration_seconds{method,route,status}`
 *   (histogram, {@link HTTP_DURATION_BUCKETS}); `route` is Fastify's route template (`/v1/contacts/:id`), never
 *   the URL, and {@link UNMATCHED_ROUTE} when no route matched;
 * - `leadflow_auth_failures_total{reason}`: `invalid_api_key`, `invalid_admin_token` (401), `insufficient_scope`,
 *   `feature_not_available` (403), `brute_force` (429 of an address blocked after repeated failures);
 * - `leadflow_quota_refusals_total{limit_type,code}`: every other 429 (`per_key` hourly quota or per-minute key
 *   limit, `per_ip` route limits, `none` for the domain limits such as `test_quota_exceeded`);
 * - Node's default process metrics (`process_*`, `nodejs_*`, prom-client's collectDefaultMetrics).
 *
 * {@link record} is the whole per-request cost: three Map lookups for the cached series, one integer increment
 * (the request counter is filled from it when scraped, in its `collect()`) and one histogram observation (plus
 * a refusal counter on 401/403/429); nothing asynchronous.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly duration: Histogram<RequestLabels>;
  private readonly authFailures: Counter<'reason'>;
  private readonly quotaRefusals: Counter<'limit_type' | 'code'>;
  /** route → method → status → the series: its count and its histogram child (prom-client hashes labels on every call otherwise). */
  private readonly series = new Map<string, Map<string, Map<number, RequestSeries>>>();

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    const series = this.series;
    new Counter<RequestLabels>({
      name: 'leadflow_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
      // Filled when scraped from the per-series integers record() increments (a prom-client inc() per request
      // costs a label validation and hash).
      collect() {
        this.reset();
        for (const byMethod of series.values()) for (const byStatus of byMethod.values()) for (const entry of byStatus.values()) this.labels(...entry.labels).inc(entry.count);
      },
    });
    this.duration = new Histogram({
      name: 'leadflow_http_request_duration_seconds',
      help: 'Time from the request to its response (Fastify reply.elapsedTime), by method, route template and status, in seconds.',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_DURATION_BUCKETS,
      registers,
    });
    this.authFailures = new Counter({
      name: 'leadflow_auth_failures_total',
      help: 'Requests refused for their credentials: invalid_api_key, invalid_admin_token, insufficient_scope, feature_not_available, brute_force (429).',
      labelNames: ['reason'],
      registers,
    });
    this.quotaRefusals = new Counter({
      name: 'leadflow_quota_refusals_total',
      help: 'Requests refused with 429 by a quota or rate limit (brute-force blocks excepted), by limit_type (per_key, per_ip, none) and error code.',
      labelNames: ['limit_type', 'code'],
      registers,
    });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /**
   * Records one answered request. `route`: Fastify's route template (undefined when no route matched);
   * `elapsedMs`: Fastify's `reply.elapsedTime`; `error`: the DomainError the response rendered, if any
   * (consulted only for 401, 403 and 429).
   */
  record(method: string, route: string | undefined, status: number, elapsedMs: number, error: DomainError | undefined): void {
    const template = route ?? UNMATCHED_ROUTE;
    let byMethod = this.series.get(template);
    if (byMethod === undefined) this.series.set(template, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) {
      const labels = [method, template, String(status)] as const;
      series = { labels, count: 0, duration: this.duration.labels(...labels) };
      byStatus.set(status, series);
    }
    series.count += 1;
    series.duration.observe(elapsedMs / 1000);
    if (status === 401 || status === 403 || status === 429) this.refusal(status, error);
  }

  private refusal(status: number, error: DomainError | undefined): void {
    if (error === undefined) return;
    const details = error.details as { limit_type?: unknown } | null;
    const limitType = details !== null && !Array.isArray(details) && typeof details.limit_type === 'string' ? details.limit_type : 'none';
    if (AUTH_FAILURE_CODES.has(error.code)) this.authFailures.labels(error.code).inc();
    else if (status === 429 && limitType === 'brute_force') this.authFailures.labels('brute_force').inc();
    else if (status === 429) this.quotaRefusals.labels(limitType, error.code).inc();
  }
}
