import { AsyncLocalStorage } from 'node:async_hooks';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';

/** Where one request's (or one explicit read's) reads went, decided once on its first read. */
export interface ReadDecision {
  /** Index of the chosen replica in `DATABASE_READ_URLS`, or null for the primary. */
  replica: number | null;
  /** Why (the `reason` label of `leadflow_db_reads_total`). */
  reason: ReadRouteReason;
}

/**
 * `replica`: fresh enough for the reader; `own_write`: no usable replica has replayed the reader's last
 * write yet; `lag`: every replica that answers lags past `DATABASE_READ_MAX_LAG_MS`; `down`: no replica
 * answers; `unknown_lsn`: Redis did not say what the reader wrote (read from the primary to be safe);
 * `connect_error`: the chosen replica refused a connection (marked down until its next good poll).
 */
export type ReadRouteReason = 'replica' | 'own_write' | 'lag' | 'down' | 'unknown_lsn' | 'connect_error';

/**
 * The read-routing context of a request (or of a worker's explicit read), carried in {@link READ_CONTEXT}.
 * Only reads outside a unit of work in a read-only context go to a replica; everything else, key
 * resolution included (the writer is not known yet), goes to the primary.
 */
export interface ReadContext {
  /** The router whose DataSource may serve these reads from a replica (two apps may share a process in tests). */
  readonly owner: object;
  /** True for a read-only route (GET/HEAD or @ReadOnlyRoute()) or an explicit `ReadReplicaRouter.readOnly`. */
  readonly readOnly: boolean;
  /**
   * Who reads and writes: an API key id, `operator`, or null while unknown (before the guard resolved the
   * key) or for none (worker aggregates); read at each connection, so it is set once the guard has run.
   */
  readonly writer: () => string | null;
  /** A worker's explicit read: may use a replica without a writer (no own writes to wait for). */
  readonly anonymous: boolean;
  /** Set once a unit of work committed under this context (its writer's LSN is then recorded). */
  wrote: boolean;
  /** The decision of the first read, reused by the following reads of the same request (one snapshot). */
  decision?: Promise<ReadDecision>;
}

/**
 * The process's one read-routing storage. Entered only when `DATABASE_READ_URLS` is set (the api's
 * `/v1` and `/admin` requests, the worker's metric aggregates), so without replicas no request pays for
 * an AsyncLocalStorage (see TransactionHost on its cost).
 */
export const READ_CONTEXT = new AsyncLocalStorage<ReadContext>();

/** Route config member marking a non-GET route whose handler only reads (see {@link ReadOnlyRoute}). */
export const READ_ONLY_ROUTE = 'leadflowReadOnly';

/**
 * Marks a route whose handler only reads although its method is not GET (a search sent as POST): with
 * `DATABASE_READ_URLS` set its reads may go to a replica. GET and HEAD routes are read-only without it.
 * Merges into the Fastify route config, so put it above `@AcceptFormBody()` when a handler has both.
 * A read-only route must not write outside a unit of work (`UnitOfWork.run` always uses the primary).
 */
export function ReadOnlyRoute(): MethodDecorator {
  return (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const config = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as Record<string, unknown> | undefined) ?? {};
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...config, [READ_ONLY_ROUTE]: true }, handler);
    return descriptor;
  };
}

/**
 * Runs `work` outside any read-routing context (every connection it takes is the primary's) and marks
 * the caller's context as having written once `work` resolves. TransactionHost.run goes through it, so a
 * unit of work (and each read inside it) is always on the primary.
 */
export function onPrimary<T>(context: ReadContext, work: () => Promise<T>): Promise<T> {
  return READ_CONTEXT.exit(async () => {
    const result = await work();
    context.wrote = true;
    return result;
  });
}
