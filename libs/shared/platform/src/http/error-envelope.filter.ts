import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@leadflow/shared-kernel';
import { AppConfig } from '../config/app-config';
import { renderDomainError } from './error-envelope';

/**
 * The one place that turns errors into responses (ARCHITECTURE › Request path): DomainErrors by their
 * code, Nest and Fastify HTTP errors by their status, anything else as 500 `internal_error` (logged
 * with the request id, never leaking internals).
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorEnvelope');

  constructor(private readonly config: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    sendError(reply, request, toDomainError(exception, this.logger, request), this.config.publicBaseUrl);
  }
}

/** Writes the rendered envelope on a Fastify reply (also used by the Fastify error handler). */
export function sendError(reply: FastifyReply, request: FastifyRequest, error: DomainError, publicBaseUrl: string): void {
  const rendered = renderDomainError(error, String(request.id), publicBaseUrl);
  if (rendered.status === 429) request.leadflow.rateLimited ??= false;
  for (const [name, value] of Object.entries(rendered.headers)) reply.header(name, value);
  void reply.status(rendered.status).type('application/json; charset=utf-8').send(rendered.body);
}

const FASTIFY_CODES: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', message: 'Content-Type must be application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_request', message: 'Content-Length does not match the body.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_request', message: 'The JSON body is empty.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'The request body is too large.' },
};

/** Maps any thrown value to a DomainError (unknown values become 500 `internal_error`, logged). */
export function toDomainError(exception: unknown, logger: Logger, request?: FastifyRequest): DomainError {
  if (exception instanceof DomainError) return exception;
  const fastifyCode = (exception as { code?: unknown })?.code;
  if (typeof fastifyCode === 'string' && FASTIFY_CODES[fastifyCode]) {
    const known = FASTIFY_CODES[fastifyCode];
    return new DomainError(known.code, known.message, null);
  }
  if (exception instanceof SyntaxError || fastifyCode === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new DomainError('invalid_request', 'The body is not valid JSON.', { field: '', reason: 'invalid_json' });
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return new DomainError('not_found', 'No such route.', null);
    if (status === 405) return new DomainError('method_not_allowed', 'Method not allowed.', null);
    if (status === 413) return new DomainError('payload_too_large', 'The request body is too large.', null);
    if (status === 415) return new DomainError('unsupported_media_type', 'Content-Type must be application/json.', null);
    if (status < 500) return new DomainError('invalid_request', exception.message, null, { status });
  }
  const statusCode = (exception as { statusCode?: unknown })?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return new DomainError('invalid_request', (exception as Error).message ?? 'Bad request.', null, { status: statusCode });
  }
  logger.error({ err: exception, reqId: request?.id }, 'Unhandled error');
  return new DomainError('internal_error', 'An unexpected error occurred. Quote the request id to support.', null);
}
