import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Clock } from '@leadflow/shared-kernel';
import { InvalidSignatureError, verifyServiceSignature } from '@leadflow/events-core';

/** Name of the optional request-signature header of POST /v1/events. */
export const SERVICE_SIGNATURE_HEADER = 'x-service-signature';

/**
 * Optional `X-Service-Signature` of `POST /v1/events` (public-api-v1 › Authentication 6). Runs after
 * the global ApiRequestGuard (the key is authenticated, limits and scope checked, the body read), on
 * the raw body text kept by the JSON parser (never a re-serialisation) and the raw API key of the
 * Authorization header. Absent: the key alone authenticates. Present: strict (see
 * `verifyServiceSignature`), 401 `invalid_signature` for anything malformed, outside the 5 minute
 * window or wrong; sent twice counts as malformed.
 */
@Injectable()
export class ServiceSignatureGuard implements CanActivate {
  constructor(private readonly clock: Clock) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers[SERVICE_SIGNATURE_HEADER];
    if (header === undefined) return true;
    if (typeof header !== 'string') throw new InvalidSignatureError('malformed');
    const key = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!key) throw new InvalidSignatureError('malformed'); // unreachable: the key was authenticated
    verifyServiceSignature(header, request.leadflow.rawBody ?? '', key, Math.floor(this.clock.now().getTime() / 1000));
    return true;
  }
}
