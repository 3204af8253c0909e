import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScenarioResult } from './load-runner';

/** The whole results file `bench/results/<YYYY-MM-DD>.json`. */
export interface BenchReport {
  /** Local calendar date of the run (the file name). */
  date: string;
  started_at: string;
  finished_at: string;
  settings: {
    base_url: string;
    duration_seconds: number;
    /** Rounds of the whole sequence (`BENCH_ROUNDS`). */
    rounds: number;
    connections: number;
    pipelining: 1;
    /** Where the key came from and its hourly quota as `GET /v1/me` reported it. */
    api_key: { source: 'created_by_harness' | 'BENCH_API_KEY'; prefix: string | null; per_hour: number | null };
    baseline: { database: string; pool_size: number; runs_on: 'worker thread of the harness process'; redis_quota_call_per_request: boolean };
  };
  environment: {
    node: string;
    platform: string;
    cpus: number;
    cpu_model: string | null;
    autocannon: string;
    /** Commit of the repository the harness ran from, `-dirty` when it had uncommitted changes. */
    git_commit: string | null;
  };
  /** Per scenario, the round whose ratio to the baseline (api) or rate (baseline) is the median of the rounds. */
  scenarios: ScenarioResult[];
  /** Every round's results, in order (each with its own ratios). */
  rounds: ScenarioResult[][];
  /** Anything the reader of the figures should know (quota refusals, skipped scenarios...). */
  notes: string[];
}

/** `YYYY-MM-DD` in the machine's time zone. */
export function localIsoDate(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** Fills `ratio_to_baseline` of every api scenario whose baseline ran. */
export function withRatios(results: ScenarioResult[]): ScenarioResult[] {
  const byName = new Map(results.map((result) => [result.name, result]));
  return results.map((result) => {
    const baseline = result.baseline === null ? undefined : byName.get(result.baseline);
    if (result.requests_per_second === null || !baseline?.requests_per_second) return result;
    return { ...result, ratio_to_baseline: Math.round((result.requests_per_second / baseline.requests_per_second) * 1000) / 1000 };
  });
}

/**
 * Per scenario, the result of the round with the median ratio (api scenarios) or median rate (baseline
 * scenarios); with an even number of rounds, the lower middle. Keeps the order of the first round.
 */
export function medianRound(rounds: ScenarioResult[][]): ScenarioResult[] {
  if (rounds.length === 0) return [];
  return rounds[0].map((first) => {
    const runs = rounds.map((round) => round.find((result) => result.name === first.name)).filter((result): result is ScenarioResult => result !== undefined);
    const key = (result: ScenarioResult) => (result.target === 'baseline' ? result.requests_per_second : result.ratio_to_baseline) ?? -1;
    const sorted = [...runs].sort((a, b) => key(a) - key(b));
    return sorted[Math.floor((sorted.length - 1) / 2)];
  });
}

/** Writes the report (through a `.tmp` file renamed into place; a same-day run overwrites). Returns the path. */
export async function writeReport(directory: string, report: BenchReport): Promise<string> {
  await mkdir(directory, { recursive: true });
  const path = join(directory, `${report.date}.json`);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(report, null, 2)}\n`, 'utf8');
  await rename(temporary, path);
  return path;
}

/** The table printed at the end: one row per scenario, api rows then baseline rows. */
export function formatTable(results: ScenarioResult[]): string {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'vs baseline', 'note'];
  const rows = results.map((result) => {
    if (result.status === 'skipped') {
      return [result.name, '-', '-', '-', '-', '-', `skipped (${result.skip_reason ?? 'unknown'})`];
    }
    return [
      result.name,
      formatNumber(result.requests_per_second, 1),
      formatNumber(result.latency_ms?.p50 ?? null, 0),
      formatNumber(result.latency_ms?.p99 ?? null, 0),
      String(result.non_2xx ?? '-'),
      result.ratio_to_baseline === null ? (result.target === 'baseline' ? '(baseline)' : '-') : `${result.ratio_to_baseline.toFixed(2)} × ${result.baseline}`,
      noteOf(result),
    ];
  });
  const numeric = new Set([1, 2, 3, 4]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** Contacts per second of a batch scenario (`12345.0 contacts/s`), then statuses other than 2xx and connection errors, e.g. `429×4410`. */
function noteOf(result: ScenarioResult): string {
  const parts = result.items_per_second != null ? [`${result.items_per_second.toFixed(1)} contacts/s`] : [];
  for (const [status, count] of Object.entries(result.status_codes ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .sort(([, a], [, b]) => b - a)) {
    parts.push(`${status}×${count}`);
  }
  if (result.errors) parts.push(`${result.errors} errors${result.timeouts ? ` (${result.timeouts} timeouts)` : ''}`);
  return parts.join(' ');
}

function formatNumber(value: number | null, digits: number): string {
  return value === null ? '-' : value.toFixed(digits);
}
