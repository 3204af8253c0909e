import autocannon from 'autocannon';
import type { Scenario } from './scenarios';

/** What one scenario measured (or why it was not run): one entry of `scenarios` in the results file. */
export interface ScenarioResult {
  name: string;
  label: string;
  target: Scenario['target'];
  method: Scenario['method'];
  path: string;
  baseline: string | null;
  status: 'ran' | 'skipped';
  /** Why it was skipped, e.g. `route missing` (its probe answered 404). */
  skip_reason: string | null;
  /** Status and error code of the probe sent alone before the load. */
  probe: { status: number; code: string | null } | null;
  duration_seconds: number | null;
  connections: number | null;
  /** Responses per second, any status (autocannon's `Req/Sec` average over one-second samples). */
  requests_per_second: number | null;
  /** 2xx responses per second: requests_per_second × the 2xx share of the responses. */
  ok_per_second: number | null;
  /** Contacts written by each request (the batch upsert's inputs), else null. */
  items_per_request: number | null;
  /** Contacts per second: ok_per_second × items_per_request (null unless a batch scenario ran). */
  items_per_second: number | null;
  latency_ms: { p50: number; p90: number; p99: number; average: number; max: number } | null;
  responses: number | null;
  non_2xx: number | null;
  /** Count per HTTP status, e.g. `{ "200": 812, "429": 4410 }`. */
  status_codes: Record<string, number> | null;
  /** Socket errors (refused, reset) and timeouts: requests without any response. */
  errors: number | null;
  timeouts: number | null;
  /** requests_per_second / the baseline scenario's (api scenarios that ran against a baseline that ran). */
  ratio_to_baseline: number | null;
}

export interface LoadSettings {
  baseUrl: string;
  durationSeconds: number;
  connections: number;
  /** Sent with every request (Authorization for the api). */
  headers: Record<string, string>;
}

export interface ProbeResponse {
  status: number;
  body: unknown;
}

/** Sends one request alone (the probe, or a setup call) and reads its JSON body when there is one. */
export async function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body: string | null): Promise<ProbeResponse> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: body === null ? headers : { ...headers, 'content-type': 'application/json' },
    body: body ?? undefined,
  });
  const raw = await response.text();
  let parsed: unknown = raw;
  try {
    parsed = raw.length > 0 ? JSON.parse(raw) : null;
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, body: parsed };
}

export function errorCode(body: unknown): string | null {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string' ? (body as { code: string }).code : null;
}

function skipped(scenario: Scenario, reason: string, probe: ScenarioResult['probe']): ScenarioResult {
  return {
    ...describe(scenario),
    status: 'skipped',
    skip_reason: reason,
    probe,
    duration_seconds: null,
    connections: null,
    requests_per_second: null,
    ok_per_second: null,
    items_per_second: null,
    latency_ms: null,
    responses: null,
    non_2xx: null,
    status_codes: null,
    errors: null,
    timeouts: null,
    ratio_to_baseline: null,
  };
}

function describe(scenario: Scenario): Pick<ScenarioResult, 'name' | 'label' | 'target' | 'method' | 'path' | 'baseline' | 'items_per_request'> {
  return {
    name: scenario.name,
    label: scenario.label,
    target: scenario.target,
    method: scenario.method,
    path: scenario.path,
    baseline: scenario.baseline,
    items_per_request: scenario.itemsPerRequest ?? null,
  };
}

/** A scenario that could not even be probed (the server refused the connection...). */
export function failedScenario(scenario: Scenario, reason: string): ScenarioResult {
  return skipped(scenario, reason, null);
}

/**
 * Probes the scenario's route once, then, unless it answered 404 (route missing: reported as skipped,
 * never an error), drives it with autocannon for the configured duration and connections.
 */
export async function runScenario(scenario: Scenario, settings: LoadSettings): Promise<ScenarioResult> {
  let probe: ScenarioResult['probe'];
  try {
    const answer = await send(settings.baseUrl, scenario.method, scenario.path, settings.headers, scenario.probe.body);
    probe = { status: answer.status, code: errorCode(answer.body) };
  } catch (error) {
    return failedScenario(scenario, `probe failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (probe.status === 404) return skipped(scenario, 'route missing', probe);

  const contentType: Record<string, string> = scenario.method === 'POST' ? { 'content-type': 'application/json' } : {};
  const result = await autocannon({
    url: settings.baseUrl,
    title: scenario.name,
    connections: settings.connections,
    duration: settings.durationSeconds,
    pipelining: 1,
    timeout: 10,
    headers: { ...settings.headers, ...contentType },
    requests: scenario.requests,
    renderProgressBar: false,
    renderResultsTable: false,
    renderLatencyTable: false,
  });

  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, stat]) => [status, stat.count]));
  const responses = result.requests.total;
  const ok = result['2xx'];
  const okPerSecond = responses > 0 ? round(result.requests.average * (ok / responses), 1) : 0;
  return {
    ...describe(scenario),
    status: 'ran',
    skip_reason: null,
    probe,
    duration_seconds: result.duration,
    connections: result.connections,
    requests_per_second: round(result.requests.average, 1),
    ok_per_second: okPerSecond,
    items_per_second: scenario.itemsPerRequest ? round(okPerSecond * scenario.itemsPerRequest, 1) : null,
    latency_ms: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      average: round(result.latency.average, 2),
      max: result.latency.max,
    },
    responses,
    non_2xx: result.non2xx,
    status_codes: statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    ratio_to_baseline: null,
  };
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
