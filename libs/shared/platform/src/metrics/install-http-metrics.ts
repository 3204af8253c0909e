import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { DomainError } from '@leadflow/shared-kernel';
import { AppConfig } from '../config/app-config';
import { FailedAttempts } from '../http/auth/failed-attempts';
import { sendError } from '../http/error-envelope.filter';
import { ClusterMetricsWorker } from './cluster-metrics';
import { HttpMetrics } from './http-metrics';
import { registerQuotaStoreMetrics } from './quota-store-metrics';
import { QuotaStoreState } from '../http/quota-store-state';
import { ReadReplicaRouter } from '../database/read-replicas/read-replica.router';
import { registerReadReplicaMetrics } from '../database/read-replicas/install-read-routing';
import { METRICS_CHALLENGE, METRICS_UNAUTHORIZED_BODY, metricsScrapeAllowed } from './metrics-token';

/** Path of the Prometheus endpoint on the api and the worker. */
export const METRICS_PATH = '/metrics';

const INSTALLED = new WeakMap<object, HttpMetrics>();

/**
 * Installs the api's metrics on the Fastify instance (call before `app.init()`, after installHttpContract):
 * - an `onResponse` hook, synchronous, that hands method, route template, status, `reply.elapsedTime` and the
 *   rendered DomainError (set by sendError) to {@link HttpMetrics.record};
 * - `GET /metrics`: the Prometheus text format (`text/plain; version=0.0.4`) of {@link HttpMetrics}; under
 *   `npm start` the sum over every api process (ClusterMetricsWorker), else this process's. With `METRICS_TOKEN`
 *   set, a scrape without `Authorization: Bearer <METRICS_TOKEN>` answers 401 (`WWW-Authenticate: Bearer`);
 *   unset, the endpoint is open. Wrong or missing tokens are limited like the operator token's
 *   ({@link FailedAttempts.checkSecret} `metrics_token`: from the 11th of a client address within 10 minutes,
 *   429 `rate_limit_exceeded` in the error envelope, `details` `{ limit_type: 'brute_force', retry_after_seconds }`,
 *   `Retry-After`, right token included; one budget with the worker's /metrics). Outside the quota and the
 *   API-key guard (a plain Fastify route).
 * Returns the metrics (tests read them).
 */
export function installHttpMetrics(app: NestFastifyApplication): HttpMetrics {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const config = app.get(AppConfig);
  const token = config.metricsToken;
  const failures = app.get(FailedAttempts);
  const metrics = new HttpMetrics();
  registerQuotaStoreMetrics(metrics.registry, app.get(QuotaStoreState));
  registerReadReplicaMetrics(metrics.registry, app.get(ReadReplicaRouter));
  const cluster = ClusterMetricsWorker.start(metrics.registry);
  INSTALLED.set(app, metrics);

  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    metrics.record(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime, request.leadflow?.error);
    done();
  });
  fastify.addHook('onClose', (_instance: FastifyInstance, done: HookHandlerDoneFunction) => {
    cluster?.stop();
    done();
  });
  fastify.get(METRICS_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('cache-control', 'no-store');
    if (token !== null) {
      let allowed: boolean;
      try {
        allowed = await failures.checkSecret('metrics_token', request.ip, metricsScrapeAllowed(request.headers.authorization, token));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        sendError(reply, request, error, config.publicBaseUrl);
        return reply;
      }
      if (!allowed) return reply.status(401).header('www-authenticate', METRICS_CHALLENGE).type('text/plain; charset=utf-8').send(METRICS_UNAUTHORIZED_BODY);
    }
    const clustered = cluster ? await cluster.scrape() : null;
    const text = clustered ?? (await metrics.registry.metrics());
    return reply
      .type(metrics.registry.contentType)
      .send(cluster && clustered === null ? `# leadflow: the npm start primary did not answer; metrics of api process ${process.pid} only\n${text}` : text);
  });
  return metrics;
}

/** The metrics {@link installHttpMetrics} installed on `app`, if any. */
export function httpMetricsOf(app: NestFastifyApplication): HttpMetrics | undefined {
  return INSTALLED.get(app);
}
