import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@leadflow/shared-kernel';
import { AppConfig } from '../config/app-config';
import { renderDomainError } from './error-envelope';
import { BODY_LIMIT_BYTES, SERVICE_VERSION } from './http-contract.constants';

/**
 * The one place that turns errors into responses (ARCHITECTURE › Request path): DomainErrors by their
 * code, Nest and Fastify HTTP errors by their status, an unreachable database as 503, anything else as
 * 500 `internal_error` (logged with the request id, never leaking internals).
 *
 * It also renders what Fastify raises outside Nest's pipeline (body too large, Content-Length
 * mismatch): Nest's Fastify error handler wraps those in an HttpException whose `cause` is the Fastify
 * error and hands them to this global filter. The router's refusals (malformed URL) reach
 * `toDomainError` and `sendError` through `frameworkErrors` (fastify-setup.ts).
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorEnvelope');

  constructor(private readonly config: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (reply.sent) {
      this.logger.error({ err: exception, request_id: request.id }, 'Error after the response was sent');
      return;
    }
    sendError(reply, request, toDomainError(exception, this.logger, request), this.config.publicBaseUrl);
  }
}

/**
 * Writes the rendered envelope on a Fastify reply. Also sets `X-Request-ID` and `Service-Version`,
 * for errors raised before the onRequest hook ran (e.g. a malformed URL).
 */
export function sendError(reply: FastifyReply, request: FastifyRequest, error: DomainError, publicBaseUrl: string): void {
  request.leadflow ??= {};
  request.leadflow.error = error;
  const rendered = renderDomainError(error, String(request.id), publicBaseUrl);
  if (rendered.status === 429) request.leadflow.rateLimited ??= false;
  void reply.header('X-Request-ID', String(request.id));
  void reply.header('Service-Version', SERVICE_VERSION);
  for (const [name, value] of Object.entries(rendered.headers)) void reply.header(name, value);
  void reply.status(rendered.status).type('application/json; charset=utf-8').send(rendered.body);
}

/** Errors Fastify raises by itself, by their `code`. */
const FASTIFY_ERRORS: Record<string, () => DomainError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new DomainError('unsupported_media_type', 'Send the body as Content-Type: application/json.', null),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new DomainError('invalid_request', 'The body length does not match the Content-Length header.', {
      field: 'Content-Length',
      reason: 'invalid_value',
    }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => invalidJson(),
  FST_ERR_CTP_INVALID_JSON_BODY: () => invalidJson(),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new DomainError('payload_too_large', `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`, { max_bytes: BODY_LIMIT_BYTES }),
  FST_ERR_BAD_URL: () => new DomainError('invalid_request', 'The URL is malformed (invalid percent-encoding).', { field: 'url', reason: 'invalid_format' }),
  FST_ERR_MAX_PARAM_LENGTH: () => new DomainError('invalid_request', 'A path parameter is too long.', { field: 'url', reason: 'too_long' }),
};

/** Error codes of an unreachable PostgreSQL or Redis (node, pg SQLSTATE classes 08 and 57P, 53300). */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '08000', '08001', '08003', '08006', '57P01', '57P02', '57P03', '53300']);

function invalidJson(): DomainError {
  return new DomainError('invalid_request', 'The body is not valid JSON.', { field: '', reason: 'invalid_json' });
}

function codeOf(value: unknown): string | undefined {
  const code = (value as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function isUnavailable(exception: unknown): boolean {
  const candidates = [exception, (exception as { driverError?: unknown })?.driverError, (exception as { cause?: unknown })?.cause];
  if (candidates.some((candidate) => UNAVAILABLE_CODES.has(codeOf(candidate) ?? ''))) return true;
  const name = (exception as { name?: unknown })?.name;
  return name === 'MaxRetriesPerRequestError' || (exception instanceof Error && /^Connection terminated/.test(exception.message));
}

/** Maps any thrown value to a DomainError (unknown values become 500 `internal_error`, logged). */
export function toDomainError(exception: unknown, logger: Logger, request?: FastifyRequest): DomainError {
  if (exception instanceof DomainError) return exception;
  const fastifyCode = codeOf(exception) ?? (exception instanceof HttpException ? codeOf(exception.cause) : undefined);
  if (fastifyCode && FASTIFY_ERRORS[fastifyCode]) return FASTIFY_ERRORS[fastifyCode]();
  if (exception instanceof SyntaxError) return invalidJson();
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return new DomainError('not_found', 'No such route.', null);
    if (status === 405) return new DomainError('method_not_allowed', 'Method not allowed.', null);
    if (status === 413) return FASTIFY_ERRORS.FST_ERR_CTP_BODY_TOO_LARGE();
    if (status === 415) return FASTIFY_ERRORS.FST_ERR_CTP_INVALID_MEDIA_TYPE();
    if (status === 503) return serviceUnavailable();
    if (status < 500) return new DomainError('invalid_request', exception.message, null, { status });
  }
  const statusCode = (exception as { statusCode?: unknown })?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return new DomainError('invalid_request', (exception as Error).message ?? 'Bad request.', null, { status: statusCode });
  }
  if (isUnavailable(exception)) {
    logger.error({ err: exception, request_id: request?.id }, 'Dependency unavailable');
    return serviceUnavailable();
  }
  logger.error({ err: exception, request_id: request?.id }, 'Unhandled error');
  return new DomainError('internal_error', 'An unexpected error occurred. Quote the request id to support.', null);
}

function serviceUnavailable(): DomainError {
  return new DomainError('service_unavailable', 'The service is temporarily unavailable. Retry with exponential backoff.', null, {
    headers: { 'Retry-After': '5' },
  });
}
