import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { Counter, Gauge, Registry } from 'prom-client';
import { READ_CONTEXT, READ_ONLY_ROUTE, ReadContext } from './read-context';
import { ReadReplicaRouter } from './read-replica.router';

const CONTEXT = Symbol('leadflow.readContext');

type WithContext = FastifyRequest & { [CONTEXT]?: ReadContext };

/** The writer of a request: its API key id once ApiRequestGuard resolved it (`/v1`), `operator` on `/admin`, else null. */
function writerOf(request: FastifyRequest): string | null {
  if (request.url.startsWith('/admin/')) return 'operator';
  return request.leadflow?.principal?.keyId ?? null;
}

/**
 * Installs read routing on the api (call after installHttpContract, before `app.init()`); does nothing
 * when `DATABASE_READ_URLS` is unset. Two Fastify hooks on `/v1` and `/admin` requests:
 * - `onRequest`: the request runs in a {@link ReadContext}; read-only when the method is GET or HEAD or
 *   the route is marked `@ReadOnlyRoute()`. Its writer is read at each connection, so the guard's key
 *   lookup (writer not known yet) is always on the primary;
 * - `onSend`: when the request committed a unit of work, or was a non-read-only request that did not
 *   fail (< 400: a write outside a unit of work counts too), its writer's LSN is recorded
 *   (ReadReplicaRouter.recordWrite) before the response leaves, so a read after the response sees it.
 */
export function installReadRouting(app: NestFastifyApplication): void {
  const router = app.get(ReadReplicaRouter);
  if (!router.enabled) return;
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  fastify.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const url = request.url;
    if (!url.startsWith('/v1/') && !url.startsWith('/admin/')) return done();
    const method = request.method;
    const routeConfig = request.routeOptions?.config as unknown as Record<string, unknown> | undefined;
    const context: ReadContext = {
      owner: router,
      readOnly: method === 'GET' || method === 'HEAD' || routeConfig?.[READ_ONLY_ROUTE] === true,
      writer: () => writerOf(request),
      anonymous: false,
      wrote: false,
    };
    (request as WithContext)[CONTEXT] = context;
    READ_CONTEXT.run(context, done);
  });
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const context = (request as WithContext)[CONTEXT];
    if (!context) return payload;
    const wrote = context.wrote || (!context.readOnly && reply.statusCode < 400);
    const writer = wrote ? context.writer() : null;
    if (writer !== null) await router.recordWrite(writer);
    return payload;
  });
}

/**
 * The read-routing metrics on `registry`, read at scrape time from `router` (none when inactive):
 * - `leadflow_db_reads_total{target,reason}` (counter): connections taken by read-only contexts, by target
 *   (`replica`, `primary`) and reason (`replica`, `own_write`, `lag`, `down`, `unknown_lsn`, `connect_error`);
 * - `leadflow_db_replica_up{replica}` (gauge): 1 while the replica answers the poller and is in recovery;
 * - `leadflow_db_replica_lag_seconds{replica}` (gauge, seconds): estimated lag (absent while down).
 * Under `npm start` the counters are summed over the api processes, the gauges take the worst process.
 */
export function registerReadReplicaMetrics(registry: Registry, router: ReadReplicaRouter): void {
  if (!router.enabled) return;
  const registers = [registry];
  new Counter({
    name: 'leadflow_db_reads_total',
    help: 'Database connections taken by read-only requests (and worker aggregates), by target (replica, primary) and reason.',
    labelNames: ['target', 'reason'],
    registers,
    collect() {
      this.reset();
      for (const [key, value] of router.readCounts()) {
        const [target, reason] = key.split('|') as [string, string];
        this.labels(target, reason).inc(value);
      }
    },
  });
  new Gauge({
    name: 'leadflow_db_replica_up',
    help: 'Whether a read replica answers the poller and replays WAL (1) or not (0: the primary serves its reads).',
    labelNames: ['replica'],
    registers,
    aggregator: 'min',
    collect() {
      this.reset();
      for (const gauge of router.gauges()) this.labels(gauge.replica).set(gauge.up);
    },
  });
  new Gauge({
    name: 'leadflow_db_replica_lag_seconds',
    help: 'Estimated replay lag of a read replica: how long ago the primary was at its replay position, in seconds.',
    labelNames: ['replica'],
    registers,
    aggregator: 'max',
    collect() {
      this.reset();
      for (const gauge of router.gauges()) if (gauge.lagSeconds !== null) this.labels(gauge.replica).set(gauge.lagSeconds);
    },
  });
}
