/**
 * Settings of `npm run bench`, read once from the environment (tools/bench/README.md lists them).
 * Nothing here starts the api: the harness drives one that is already running at `baseUrl`.
 */
export interface BenchConfig {
  /** The running api, without trailing slash. */
  baseUrl: string;
  /** Raw API key used when the harness does not create its own (`BENCH_API_KEY`). */
  apiKey: string | null;
  /** Operator token and account: when both are set the harness creates (and afterwards revokes) its own key. */
  adminToken: string | null;
  accountId: string | null;
  /** `rate_limits.per_hour` of the key the harness creates (the operator API allows at most 1 000 000). */
  keyPerHour: number;
  /** Seconds each scenario runs. */
  durationSeconds: number;
  /**
   * Rounds of the whole sequence (`BENCH_ROUNDS`, default 3): each round runs every api scenario and then
   * every baseline scenario, so a ratio compares measurements minutes apart at most; the report keeps
   * every round and gives, per scenario, the round with the median ratio (the machine's noise between
   * runs is large on a shared 2-core machine).
   */
  rounds: number;
  connections: number;
  /** PostgreSQL server of the baseline's scratch database. */
  baselineDatabaseUrl: string;
  /** Redis of the baseline's one quota call per request (`BENCH_BASELINE_REDIS_URL`, else `REDIS_URL`). */
  baselineRedisUrl: string;
  /** pg pool size of the baseline server (the api's TypeORM pool defaults to 10, `DATABASE_POOL_SIZE`). */
  baselinePoolSize: number;
  /** Where `<YYYY-MM-DD>.json` is written. */
  resultsDir: string;
  /** Scenario names to run (`BENCH_ONLY`, comma-separated); empty means all. */
  only: string[];
  /**
   * `BENCH_FORWARDED_FOR=true`: every lead capture request carries `X-Forwarded-For` with its own address
   * of 198.18.0.0/15 (RFC 2544 benchmarking range), so an api started with `TRUST_PROXY=127.0.0.1` sees
   * many clients and its 100-per-minute per-IP limit does not refuse the load.
   */
  forwardedFor: boolean;
}

export const BASELINE_DATABASE = 'leadflow_bench_baseline';

export function readBenchConfig(env: NodeJS.ProcessEnv, repositoryRoot: string): BenchConfig {
  const adminToken = nonEmpty(env.ADMIN_TOKEN);
  const accountId = nonEmpty(env.BENCH_ACCOUNT_ID);
  return {
    baseUrl: (nonEmpty(env.BENCH_BASE_URL) ?? 'http://127.0.0.1:3000').replace(/\/+$/, ''),
    apiKey: nonEmpty(env.BENCH_API_KEY),
    adminToken,
    accountId,
    keyPerHour: positiveInteger(env, 'BENCH_KEY_PER_HOUR', 1_000_000),
    durationSeconds: positiveInteger(env, 'BENCH_DURATION', 10),
    rounds: positiveInteger(env, 'BENCH_ROUNDS', 3),
    connections: positiveInteger(env, 'BENCH_CONNECTIONS', 32),
    baselineDatabaseUrl: withDatabase(
      nonEmpty(env.BENCH_BASELINE_DATABASE_URL) ?? nonEmpty(env.DATABASE_URL) ?? 'postgres://postgres@127.0.0.1:5432/leadflow',
      BASELINE_DATABASE,
    ),
    baselinePoolSize: positiveInteger(env, 'BENCH_BASELINE_POOL_SIZE', 10),
    baselineRedisUrl: nonEmpty(env.BENCH_BASELINE_REDIS_URL) ?? nonEmpty(env.REDIS_URL) ?? 'redis://127.0.0.1:6379/0',
    resultsDir: nonEmpty(env.BENCH_RESULTS_DIR) ?? `${repositoryRoot}/bench/results`,
    only: (env.BENCH_ONLY ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name.length > 0),
    forwardedFor: env.BENCH_FORWARDED_FOR === 'true',
  };
}

/** The same server and credentials as `url`, database `database` (the baseline never touches the api's database). */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function nonEmpty(value: string | undefined): string | null {
  return value !== undefined && value.trim().length > 0 ? value.trim() : null;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}
