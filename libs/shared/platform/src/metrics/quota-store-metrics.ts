import { Counter, Gauge, Registry } from 'prom-client';
import { QuotaStoreState } from '../http/quota-store-state';

/**
 * The quota store's state as Prometheus metrics, read from {@link QuotaStoreState} when scraped:
 * - `leadflow_quota_store_fallback` (gauge): 1 while this process counts its limits in process (Redis cannot
 *   count: down, or a cluster error), else 0; summed over the processes of `npm start`;
 * - `leadflow_quota_store_fallbacks_total` (counter): fallback periods entered;
 * - `leadflow_quota_store_fallback_seconds_total` (counter, seconds): time spent in fallback, the current period included.
 */
export function registerQuotaStoreMetrics(registry: Registry, state: QuotaStoreState): void {
  const registers = [registry];
  new Gauge({
    name: 'leadflow_quota_store_fallback',
    help: 'Whether the limiters (quotas, per-IP, per-key, failed credentials) count in this process because Redis cannot count (1) or in Redis (0).',
    registers,
    collect() {
      this.set(state.degraded ? 1 : 0);
    },
  });
  new Counter({
    name: 'leadflow_quota_store_fallbacks_total',
    help: 'Times the limiters switched to in-process counting (Redis down or a cluster error).',
    registers,
    collect() {
      this.reset();
      this.inc(state.snapshot().fallbacks);
    },
  });
  new Counter({
    name: 'leadflow_quota_store_fallback_seconds_total',
    help: 'Seconds the limiters counted in process instead of Redis, the current fallback included.',
    registers,
    collect() {
      this.reset();
      this.inc(state.snapshot().fallbackSeconds);
    },
  });
}
