import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig } from '../config/app-config';
import { sendError, toDomainError } from './error-envelope.filter';
import { UsageRecorder } from './usage-recorder.port';

/** Legacy host sunset (public-api-v1 › Versioning): after this instant `/api/v1/…` answers 308. */
export const LEGACY_SUNSET = new Date('2027-05-03T00:00:00.000Z');
/** When the legacy prefix was deprecated (announced twelve months before the sunset). */
export const LEGACY_DEPRECATED_AT = new Date('2026-05-03T00:00:00.000Z');

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
const LEGACY_FLAG = Symbol('leadflow.legacy');

/** Fastify server options of the api app: request ids, legacy-prefix rewriting, body limit. */
export function fastifyServerOptions() {
  return {
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    requestIdHeader: false as const,
    genReqId: (raw: IncomingMessage) => {
      const given = raw.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    },
    rewriteUrl: (raw: IncomingMessage) => {
      const url = raw.url ?? '/';
      if (url === '/api/v1' || url.startsWith('/api/v1/') || url.startsWith('/api/v1?')) {
        (raw as IncomingMessage & { [LEGACY_FLAG]?: boolean })[LEGACY_FLAG] = true;
        return url.slice('/api'.length);
      }
      return url;
    },
  };
}

/**
 * Installs the cross-cutting HTTP contract on the Fastify instance: JSON body parsing that keeps the
 * raw text and defers body errors until after authentication, `X-Request-ID` and `Service-Version`
 * on every response, legacy-prefix headers and the post-sunset 308, the usage log's completion hook,
 * and an error handler rendering the envelope for errors raised outside Nest's pipeline.
 */
export function installHttpContract(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const config = app.get(AppConfig);
  const clock = app.get(Clock);
  const usage = app.get(UsageRecorder);
  const logger = new Logger('Http');

  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.leadflow.rawBody = text;
    if (text.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      request.leadflow.bodyError = 'invalid_json';
      done(null, undefined);
    }
  });
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    request.leadflow.rawBody = body as string;
    request.leadflow.bodyError = 'unsupported_media_type';
    done(null, undefined);
  });

  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    request.leadflow = { startedAt: process.hrtime.bigint() };
    void reply.header('X-Request-ID', String(request.id));
    void reply.header('Service-Version', 'v1');
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    if (hasBody && request.headers['content-type'] === undefined) request.leadflow.bodyError = 'missing_content_type';
    if ((request.raw as IncomingMessage & { [LEGACY_FLAG]?: boolean })[LEGACY_FLAG]) {
      request.leadflow.legacy = true;
      const successor = `${config.publicBaseUrl}${request.url}`;
      if (clock.now().getTime() >= LEGACY_SUNSET.getTime()) {
        return reply.status(308).header('Location', successor).send();
      }
      void reply.header('Deprecation', `@${Math.floor(LEGACY_DEPRECATED_AT.getTime() / 1000)}`);
      void reply.header('Sunset', LEGACY_SUNSET.toUTCString());
      void reply.header('Link', `<${successor}>; rel="successor-version"`);
    }
  });

  fastify.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const state = request.leadflow;
    if (!state?.principal) return;
    const latencyMs = Number(process.hrtime.bigint() - (state.startedAt ?? process.hrtime.bigint())) / 1e6;
    usage.finished({
      principal: state.principal,
      method: request.method,
      route: request.routeOptions.url ?? request.url,
      statusCode: reply.statusCode,
      rateLimited: state.rateLimited === true,
      latencyMs,
      startedAt: new Date(Date.now() - latencyMs),
    });
  });

  fastify.setErrorHandler((error, request, reply) => {
    request.leadflow ??= {};
    sendError(reply, request, toDomainError(error, logger, request), config.publicBaseUrl);
  });
}
