import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';

/**
 * IPC messages between the api processes (cluster workers) and `npm start` (the cluster primary,
 * tools/scripts/cluster-metrics.mjs holds the other side and repeats these names):
 * - `ready` (api → primary): this process answers `collect` from now on;
 * - `scrape` `{ id }` (api → primary): a `GET /metrics` arrived here; the primary collects every ready process;
 * - `collect` `{ id }` (primary → api) / `collected` `{ id, metrics }` (api → primary): one process's metrics as
 *   prom-client JSON (`registry.getMetricsAsJSON()`);
 * - `scraped` `{ id, text }` (primary → api): the aggregated Prometheus text (prom-client AggregatorRegistry).
 */
export const CLUSTER_METRICS_MESSAGES = {
  ready: 'leadflow:metrics:ready',
  scrape: 'leadflow:metrics:scrape',
  collect: 'leadflow:metrics:collect',
  collected: 'leadflow:metrics:collected',
  scraped: 'leadflow:metrics:scraped',
} as const;

/** How long a `GET /metrics` waits for the primary's aggregate before answering with this process's metrics only (ms). */
export const CLUSTER_SCRAPE_TIMEOUT_MS = 3000;

interface Message {
  type?: unknown;
  id?: unknown;
  text?: unknown;
}

/**
 * The api process's side of the cluster-wide `/metrics` (issue 17, item 1). Under `npm start` the api runs as
 * several cluster workers behind one socket owned by the primary, which hands each connection to one of them:
 * a scrape reaches one process, whose own counters would be a random fraction of the traffic. So the process
 * that receives the scrape asks the primary, the primary collects every api process's registry over IPC and
 * sums them (prom-client's AggregatorRegistry.aggregate: counters and histograms summed, process metrics
 * summed or, for the version info, taken once), and that sum is the answer.
 *
 * Only under `npm start` (a cluster worker with `LEADFLOW_SUPERVISED=1`); an api run alone (tests, a Docker
 * replica) serves its own registry.
 */
export class ClusterMetricsWorker {
  private readonly pending = new Map<string, (text: string | null) => void>();
  private readonly listener = (message: unknown) => this.onMessage(message as Message | null);

  private constructor(private readonly registry: Registry) {
    process.on('message', this.listener);
    process.send?.({ type: CLUSTER_METRICS_MESSAGES.ready });
  }

  /** Starts answering the primary's `collect` requests when this process is a supervised cluster worker; null otherwise. */
  static start(registry: Registry, env: Record<string, string | undefined> = process.env): ClusterMetricsWorker | null {
    if (!cluster.isWorker || env.LEADFLOW_SUPERVISED !== '1' || typeof process.send !== 'function') return null;
    return new ClusterMetricsWorker(registry);
  }

  /**
   * The metrics of every api process, summed by the primary, as Prometheus text; null when the primary does
   * not answer within {@link CLUSTER_SCRAPE_TIMEOUT_MS} (the caller then serves this process's own).
   */
  scrape(): Promise<string | null> {
    const id = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(null);
      }, CLUSTER_SCRAPE_TIMEOUT_MS);
      this.pending.set(id, (text) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(text);
      });
      process.send?.({ type: CLUSTER_METRICS_MESSAGES.scrape, id }, undefined, undefined, (error) => {
        if (error) this.pending.get(id)?.(null);
      });
    });
  }

  stop(): void {
    process.off('message', this.listener);
    for (const settle of this.pending.values()) settle(null);
  }

  private onMessage(message: Message | null): void {
    if (message === null || typeof message !== 'object' || typeof message.id !== 'string') return;
    if (message.type === CLUSTER_METRICS_MESSAGES.collect) {
      const id = message.id;
      void this.registry.getMetricsAsJSON().then(
        (metrics) => process.send?.({ type: CLUSTER_METRICS_MESSAGES.collected, id, metrics }),
        () => process.send?.({ type: CLUSTER_METRICS_MESSAGES.collected, id, metrics: [] }),
      );
    } else if (message.type === CLUSTER_METRICS_MESSAGES.scraped) {
      this.pending.get(message.id)?.(typeof message.text === 'string' ? message.text : null);
    }
  }
}
