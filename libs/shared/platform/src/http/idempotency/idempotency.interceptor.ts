import { CallHandler, ExecutionContext, INestApplication, Injectable, Logger, NestInterceptor, Optional, RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DomainError, InvalidRequestError } from '@leadflow/shared-kernel';
import { AppConfig } from '../../config/app-config';
import { idempotencyKeyIgnored, OPERATOR_ROUTE_PREFIX, operatorIdempotencyScope } from './idempotency-policy';
import { IdempotencyScope, IdempotencyStore } from './idempotency.store';

/** Metadata key set by `@Idempotent(options)` (per-route options of the Idempotency-Key rule). */
export const IDEMPOTENT_ROUTE = 'leadflow:idempotent';

/** Per-route options of `@Idempotent`. */
export interface IdempotentOptions {
  /**
   * Turns the stored body into the body of a replay (default: sent unchanged). Lead capture uses it
   * to answer `status: idempotent_replay` with the original contact and timestamps.
   */
  replay?: (storedBody: unknown) => unknown;
}

const KEY_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Canonical JSON (object keys sorted) so that key order does not change the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The canonical body; a body nested too deeply to walk is a malformed request (400), never a 500. */
function canonicalBody(body: unknown): string {
  try {
    return canonicalJson(body ?? null);
  } catch (error) {
    if (error instanceof RangeError) throw new InvalidRequestError('', 'too_deep', 'The body is nested too deeply.');
    throw error;
  }
}

/**
 * The Idempotency-Key rule, applied to every route from one place (put on every `POST` handler by
 * {@link interceptPostRoutes}; public-api-v1 › Limits; README › Decisions › Newcomer path;
 * docs/adr/0002-idempotent-creates-with-secrets.md):
 * - Read on every `POST` under `/v1` (a route ApiRequestGuard authenticated with an API key) and on every
 *   creating `POST` under `/admin/v1` (one whose success is 201 Created: `POST /admin/v1/accounts`,
 *   `…/api-keys`, `…/sandbox`, `…/busy-times`; the operator token was checked by the guard). A value
 *   outside `[a-zA-Z0-9_-]{1,64}` answers 400 `invalid_request` with `details`
 *   `{ field: 'Idempotency-Key', reason: 'invalid_format' }`, after authentication and before the body
 *   is validated.
 * - A valid key is honoured on every such route except those of {@link IDEMPOTENCY_KEY_IGNORED}, where
 *   it is validated and then ignored. Honoured: keys are scoped to the account (`/v1`) or to the operator
 *   token (`operatorIdempotencyScope`, `/admin/v1`: never an account's scope) and kept 24 hours; the
 *   same key with the same method, URL and canonical JSON body replays the stored 2xx status and body
 *   (header `Idempotent-Replayed: true`, the handler does not run; a secret the first answer carried is
 *   replayed too, stored encrypted); another payload, or the first request still processing, answers
 *   409 `idempotency_conflict` (`details.reason` `payload_mismatch`, `in_progress`, or
 *   `replay_unavailable` when the stored response no longer decrypts); a refused request
 *   is not stored, so its key stays usable.
 * - Other methods, the operator API's other `POST`s (200 actions: revoke, archive, merge…) and the quote
 *   page's form posts do not read the header.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger(IdempotencyInterceptor.name);

  /** The operator token's scope, computed once per token (`operatorIdempotencyScope`). */
  private operatorScope: { token: string; scope: IdempotencyScope } | null = null;

  constructor(
    private readonly store: IdempotencyStore,
    @Optional() private readonly reflector?: Reflector,
    @Optional() private readonly config?: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined) return next.handle();
    const scope = this.scopeOf(request, context.switchToHttp().getResponse<FastifyReply>());
    if (scope === null) return next.handle();
    const key = Array.isArray(header) ? header.join(',') : header;
    if (!KEY_PATTERN.test(key)) {
      throw new InvalidRequestError('Idempotency-Key', 'invalid_format', 'Idempotency-Key must match [a-zA-Z0-9_-]{1,64}.');
    }
    if (idempotencyKeyIgnored(request.method, request.routeOptions.url)) return next.handle();
    return from(this.handle(context, next, key, scope));
  }

  /**
   * Whose keys the request's are: the API key's account (`/v1`), the operator token's scope (a creating
   * `/admin/v1` route: 201 is the status Nest set before the handler runs), or null (the header is not read).
   */
  private scopeOf(request: FastifyRequest, reply: FastifyReply): IdempotencyScope | null {
    const principal = request.leadflow?.principal;
    if (principal) return principal.accountId;
    const token = this.config?.adminToken;
    if (!token || reply.statusCode !== 201 || !request.routeOptions.url?.startsWith(OPERATOR_ROUTE_PREFIX)) return null;
    if (this.operatorScope?.token !== token) this.operatorScope = { token, scope: operatorIdempotencyScope(token) };
    return this.operatorScope.scope;
  }

  /** An honoured key: claim, then replay, refuse (409) or run the handler and store its answer. */
  private async handle(context: ExecutionContext, next: CallHandler, key: string, scope: IdempotencyScope): Promise<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    // The URL as routed (the legacy `/api` prefix already removed), query string included.
    const fingerprint = createHash('sha256').update(`${request.method} ${request.url} ${canonicalBody(request.body)}`).digest('hex');

    const claim = await this.store.claim(scope, key, fingerprint);
    if (claim.outcome === 'conflict') {
      throw new DomainError(
        'idempotency_conflict',
        claim.reason === 'in_progress'
          ? 'A request with this Idempotency-Key is still being processed.'
          : claim.reason === 'replay_unavailable'
            ? 'The request with this Idempotency-Key completed, but its stored response can no longer be read (the encryption key changed): read the resource instead of retrying.'
            : 'This Idempotency-Key was already used with another payload.',
        { reason: claim.reason },
      );
    }
    if (claim.outcome === 'replay') {
      void reply.status(claim.status).header('Idempotent-Replayed', 'true');
      const options = this.reflector?.get<IdempotentOptions | undefined>(IDEMPOTENT_ROUTE, context.getHandler());
      return options?.replay ? options.replay(claim.body) : claim.body;
    }
    let body: unknown;
    try {
      body = await lastValueFrom(next.handle());
    } catch (error) {
      // Rejections (validation, business rules, 5xx) are not stored: the key stays usable.
      await this.store.release(scope, key).catch(() => undefined);
      throw error;
    }
    // Nest set the route's status (@HttpCode or 201/200) before the handler ran; a handler may have
    // changed it (`@Res({ passthrough: true })`), so the reply holds the status actually sent.
    // The work is done: failing to store it must not turn the success into a 500. The key then stays
    // `processing` (retries get 409 until it expires), which never runs the request twice.
    await this.store.complete(scope, key, reply.statusCode, body).catch((error: unknown) => {
      this.logger.error({ err: error, request_id: request.id }, 'Idempotency-Key response could not be stored');
    });
    return body;
  }
}

/**
 * Puts `interceptor` on every `POST` handler of the application's controllers (a method-level
 * interceptor, first of that handler's), instead of registering it as a global interceptor (issue 11: a
 * route with any interceptor runs through Nest's RxJS pipeline, about a tenth of a `GET`'s CPU, and the
 * Idempotency-Key rule only concerns `POST`: it passes every other method through untouched). An
 * interceptor of an earlier application (another app built in the same process) is replaced. Call it
 * between `NestFactory.create` and `app.init()`, when the routes are built.
 */
export function interceptPostRoutes(app: INestApplication, interceptor: IdempotencyInterceptor): void {
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const prototype = (wrapper.metatype as (new (...args: never[]) => unknown) | null)?.prototype as Record<string, unknown> | undefined;
      if (!prototype) continue;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = name === 'constructor' ? undefined : prototype[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.POST) continue;
        const others = ((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? []).filter(
          (existing) => !(existing instanceof IdempotencyInterceptor),
        );
        Reflect.defineMetadata(INTERCEPTORS_METADATA, [interceptor, ...others], handler);
      }
    }
  }
}
