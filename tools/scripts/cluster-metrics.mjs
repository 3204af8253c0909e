// The cluster primary's side of the api's `GET /metrics` under `npm start` (issue 17, item 1).
//
// The api processes are cluster workers behind one socket that this primary owns; a scrape reaches one of
// them. That process sends `scrape` here; the primary sends `collect` to every api process that announced
// itself (`ready`), waits for their `collected` answers (prom-client's getMetricsAsJSON) up to
// COLLECT_TIMEOUT_MS, sums them with prom-client's AggregatorRegistry.aggregate (counters and histograms
// summed; process metrics summed or, for version info, taken once) and answers `scraped` with the
// Prometheus text, plus `leadflow_api_processes`, the number of processes the sum covers. A process that
// does not answer in time (busy, dying) is left out of that scrape rather than failing it.
// The message names are those of CLUSTER_METRICS_MESSAGES (libs/shared/platform/src/metrics/cluster-metrics.ts).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const MESSAGES = {
  ready: 'leadflow:metrics:ready',
  scrape: 'leadflow:metrics:scrape',
  collect: 'leadflow:metrics:collect',
  collected: 'leadflow:metrics:collected',
  scraped: 'leadflow:metrics:scraped',
};

/** How long the primary waits for each api process's metrics before summing those that arrived (ms). */
export const COLLECT_TIMEOUT_MS = 2000;

/**
 * Serves the api processes' `scrape` requests over the cluster IPC channel. prom-client is loaded on the
 * first scrape only, so a `npm start` that is never scraped does not pay for it.
 */
export function serveClusterMetrics(cluster) {
  /** Cluster workers that answer `collect` (they said `ready`), by worker id. */
  const ready = new Map();
  /** Open collections: id → { expected: Set<worker id>, answers: [], finish }. */
  const collections = new Map();
  let sequence = 0;

  cluster.on('exit', (worker) => {
    ready.delete(worker.id);
    for (const collection of collections.values()) {
      collection.expected.delete(worker.id);
      if (collection.expected.size === 0) collection.finish();
    }
  });

  cluster.on('message', (worker, message) => {
    if (message === null || typeof message !== 'object') return;
    if (message.type === MESSAGES.ready) ready.set(worker.id, worker);
    else if (message.type === MESSAGES.scrape && typeof message.id === 'string') {
      void aggregate().then(
        (text) => worker.isConnected() && worker.send({ type: MESSAGES.scraped, id: message.id, text }),
        () => worker.isConnected() && worker.send({ type: MESSAGES.scraped, id: message.id, text: null }),
      );
    } else if (message.type === MESSAGES.collected) {
      const collection = collections.get(message.id);
      if (!collection || !collection.expected.has(worker.id)) return;
      collection.expected.delete(worker.id);
      if (Array.isArray(message.metrics)) collection.answers.push(message.metrics);
      if (collection.expected.size === 0) collection.finish();
    }
  });

  async function aggregate() {
    const id = `c${++sequence}`;
    const answers = await new Promise((resolve) => {
      const collection = { expected: new Set(), answers: [], finish: () => undefined };
      const timer = setTimeout(() => collection.finish(), COLLECT_TIMEOUT_MS);
      collection.finish = () => {
        clearTimeout(timer);
        collections.delete(id);
        resolve(collection.answers);
      };
      collections.set(id, collection);
      for (const [workerId, worker] of ready) {
        if (!worker.isConnected()) continue;
        collection.expected.add(workerId);
        worker.send({ type: MESSAGES.collect, id });
      }
      if (collection.expected.size === 0) collection.finish();
    });
    const { AggregatorRegistry } = require('prom-client');
    const text = await AggregatorRegistry.aggregate(answers).metrics();
    return (
      `${text}# HELP leadflow_api_processes Api processes whose metrics this scrape sums (npm start, cluster).\n` +
      `# TYPE leadflow_api_processes gauge\nleadflow_api_processes ${answers.length}\n`
    );
  }
}
