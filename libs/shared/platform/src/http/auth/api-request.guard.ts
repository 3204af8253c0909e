import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiKeyPrincipal, Feature, ResolveApiKeyQuery, Scope } from '@leadflow/accounts-contracts';
import { Clock, DomainError, ValidationFailedError } from '@leadflow/shared-kernel';
import { AppConfig } from '../../config/app-config';
import { MAX_JSON_DEPTH } from '../fastify-setup';
import { LocalLimits } from '../local-limits';
import { LimitCheck, LimitOutcome, quotaExceeded, quotaHeaders, RateLimits } from '../rate-limits';
import { UsageRecorder } from '../usage-recorder.port';
import { unstorableTextViolations } from '../text/unstorable-text';
import { FailedAttempts } from './failed-attempts';
import { CLEANS_TEXT, IP_LIMIT, IpLimitPolicy, KEY_LIMIT, KeyLimitPolicy, REQUIRED_FEATURE, REQUIRED_SCOPE } from './route-policy.decorators';

/** A route's declared policy (decorators of route-policy.decorators.ts), read once per handler. */
interface RoutePolicy {
  feature: Feature | undefined;
  /** undefined: the route declares no @RequireScope (a programming error, thrown per request). */
  scope: Scope | null | undefined;
  ipLimit: IpLimitPolicy | undefined;
  keyLimit: KeyLimitPolicy | undefined;
  cleansText: boolean;
}

/**
 * The request path of ARCHITECTURE.md in one guard, in this order for `/v1` routes:
 * API key (401 `invalid_api_key`) → per-IP route limit (429, before the key quota) → the key's hourly
 * quota (429 `rate_limit_exceeded`, headers on every response) → plan gate (403 `feature_not_available`)
 * → scope (403 `insufficient_scope`) → body checks (415, 400 invalid JSON). `/admin/v1` routes need
 * `ADMIN_TOKEN` (404 when unset). Other paths (health, OpenAPI) are open.
 */
@Injectable()
export class ApiRequestGuard implements CanActivate {
  /** Handler → its policy: decorator metadata is fixed once the app is built, so it is read once (issue 11). */
  private readonly policies = new WeakMap<object, RoutePolicy>();

  constructor(
    private readonly reflector: Reflector,
    private readonly queries: QueryBus,
    private readonly limits: RateLimits,
    private readonly local: LocalLimits,
    private readonly failures: FailedAttempts,
    private readonly usage: UsageRecorder,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const path = request.url.split('?')[0];
    if (path.startsWith('/admin/')) {
      await this.checkAdmin(request);
      this.checkBody(request);
      if (!this.policyOf(context).cleansText) this.checkText(request);
      return true;
    }
    if (!path.startsWith('/v1/')) return true;

    const principal = await this.authenticate(request);
    request.leadflow.principal = principal;
    this.usage.started(principal, request.leadflow.receivedAt ?? this.clock.now());

    const policy = this.policyOf(context);
    await this.consumeLimits(policy, request, reply, principal);

    for (const needed of ['public_api', policy.feature] as (Feature | undefined)[]) {
      if (needed && !principal.features.includes(needed)) {
        throw new DomainError('feature_not_available', `The account's plan does not include the ${needed} module.`, { feature: needed });
      }
    }
    const scope = policy.scope;
    if (scope === undefined) throw new Error(`Route ${request.method} ${path} declares no @RequireScope`);
    if (scope !== null && !principal.scopes.includes(scope)) {
      throw new DomainError('insufficient_scope', `This API key lacks the ${scope} scope.`, { required_scope: scope });
    }
    this.checkBody(request);
    if (!policy.cleansText) this.checkText(request);
    return true;
  }

  /** The handler's policy, read from its decorators on its first request and kept. */
  private policyOf(context: ExecutionContext): RoutePolicy {
    const handler = context.getHandler();
    let policy = this.policies.get(handler);
    if (!policy) {
      policy = {
        feature: this.reflector.get<Feature | undefined>(REQUIRED_FEATURE, handler) ?? this.reflector.get<Feature | undefined>(REQUIRED_FEATURE, context.getClass()),
        scope: this.reflector.get<Scope | null | undefined>(REQUIRED_SCOPE, handler),
        ipLimit: this.reflector.get<IpLimitPolicy | undefined>(IP_LIMIT, handler),
        keyLimit: this.reflector.get<KeyLimitPolicy | undefined>(KEY_LIMIT, handler),
        cleansText: this.reflector.get<boolean | undefined>(CLEANS_TEXT, handler) === true,
      };
      this.policies.set(handler, policy);
    }
    return policy;
  }

  /**
   * One rule for every route (issue 12 item 3, issue 18 item 1): a body or query string holding a
   * character PostgreSQL cannot store (NUL, an unpaired UTF-16 surrogate) is refused with 400
   * `validation_error`, `details` `[{ field, reason: 'invalid_characters' }]`, before any handler runs;
   * routes marked @CleansText() clean such text themselves.
   */
  private checkText(request: FastifyRequest): void {
    if (request.body === undefined && isEmpty(request.query)) return; // nothing to walk (most reads)
    const violations = [...unstorableTextViolations(request.query), ...unstorableTextViolations(request.body)];
    if (violations.length > 0) throw new ValidationFailedError(violations);
  }

  private async authenticate(request: FastifyRequest): Promise<ApiKeyPrincipal> {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const principal = match ? await this.queries.execute(new ResolveApiKeyQuery(match[1])) : null;
    if (principal) return principal;
    // 30 per address and 10 minutes (FAILED_ATTEMPT_LIMITS); a key that resolves is never counted
    const attempts = await this.failures.recordFailure('api_key', request.ip);
    if (!attempts.allowed) {
      request.leadflow.rateLimited = true;
      throw quotaExceeded('brute_force', attempts.report.resetSeconds);
    }
    throw new DomainError(
      'invalid_api_key',
      match ? 'The API key is unknown, revoked or expired.' : 'Send the API key as Authorization: Bearer <key>.',
      null,
    );
  }

  /**
   * The route's per-IP limit (429 `rate_limited_ip` or the policy's code, simplified body, before the
   * key quota), its per-key minute limit (429 `rate_limit_exceeded`, `limit_type` `per_key`), then the
   * key's hourly quota (429 `rate_limit_exceeded`; `RateLimit-*` headers on every response): all three
   * counters in ONE Redis round trip (RateLimits.consumeAll), a refused one consuming nothing. With
   * Redis unreachable the same counters are kept in this process against its share of each limit
   * (LocalLimits: limit / API_PROCESSES, rounded down), so the api processes together admit no more.
   */
  private async consumeLimits({ ipLimit, keyLimit }: RoutePolicy, request: FastifyRequest, reply: FastifyReply, principal: ApiKeyPrincipal): Promise<void> {
    // One hash slot for the request's counters on a Redis Cluster: the account's (docs/adr/0006).
    const slot = principal.accountId;
    const checks: LimitCheck[] = [];
    if (ipLimit) checks.push({ name: `ip_${ipLimit.name}`, subject: request.ip, points: ipLimit.perMinute, windowSeconds: 60, slot });
    const keyPerMinute = keyLimit?.perMinute(principal);
    if (keyLimit && keyPerMinute !== undefined) {
      checks.push({ name: `key_${keyLimit.name}`, subject: principal.keyId, points: keyPerMinute, windowSeconds: 60, slot });
    }
    checks.push({ name: 'key_hour', subject: principal.keyId, points: principal.perHour, windowSeconds: 3600, slot });

    let outcomes: LimitOutcome[];
    try {
      outcomes = await this.limits.consumeAll(checks);
    } catch {
      // logged once per transition, exported and reported by /health/ready (QuotaStoreState)
      outcomes = this.local.consumeAll(checks, Date.now());
    }
    const now = this.clock.now();
    outcomes.forEach((outcome, index) => {
      if (outcome.allowed) return;
      request.leadflow.rateLimited = true;
      const check = checks[index] as LimitCheck;
      const retryAfter = outcome.report.resetSeconds;
      if (ipLimit && check.name === `ip_${ipLimit.name}`) {
        void reply.header('X-RateLimit-Scope', 'ip');
        throw new DomainError(
          ipLimit.code,
          `Too many requests from this IP address: at most ${ipLimit.perMinute} per minute.`,
          { limit_type: 'per_ip', retry_after_seconds: retryAfter },
          { simplified: ipLimit.simplified, headers: { 'Retry-After': String(retryAfter), ...quotaHeaders(outcome.report, now) } },
        );
      }
      if (check.name === 'key_hour') {
        void reply.headers(quotaHeaders(outcome.report, now));
        throw quotaExceeded('per_key', retryAfter);
      }
      throw new DomainError(
        'rate_limit_exceeded',
        `Too many requests with this API key on this route: at most ${check.points} per minute.`,
        { limit_type: 'per_key', retry_after_seconds: retryAfter },
        { headers: { 'Retry-After': String(retryAfter), ...quotaHeaders(outcome.report, now) } },
      );
    });
    const quota = outcomes[outcomes.length - 1];
    if (quota) void reply.headers(quotaHeaders(quota.report, now));
  }

  /**
   * `/admin/v1`: 404 when `ADMIN_TOKEN` is unset; the bearer token's sha256 digest compared in constant
   * time with the configured one's (equal lengths whatever was sent: nothing about the token's length
   * leaks); a wrong or missing token is 401 `invalid_admin_token`, and from the 11th wrong token of an
   * address within 10 minutes 429 `rate_limit_exceeded` (`limit_type` `brute_force`), right token included
   * ({@link FailedAttempts.checkSecret}: counted in Redis, else in this process against its share).
   */
  private async checkAdmin(request: FastifyRequest): Promise<void> {
    const token = this.config.adminToken;
    if (!token) throw new DomainError('not_found', 'No such route.', null);
    const header = request.headers.authorization;
    const given = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
    const expected = createHash('sha256').update(token).digest();
    const actual = createHash('sha256').update(given ?? '').digest();
    if (await this.failures.checkSecret('admin_token', request.ip, given !== undefined && timingSafeEqual(actual, expected))) return;
    throw new DomainError('invalid_admin_token', 'Send the operator token as Authorization: Bearer <ADMIN_TOKEN>.', null);
  }

  /** Body problems found while parsing (see installHttpContract), raised once the caller is authenticated. */
  private checkBody(request: FastifyRequest): void {
    const problem = request.leadflow.bodyError;
    if (problem === 'unsupported_media_type' || problem === 'missing_content_type') {
      throw new DomainError(
        'unsupported_media_type',
        problem === 'missing_content_type'
          ? 'The request has a body but no Content-Type: send it as Content-Type: application/json.'
          : 'Send the body as Content-Type: application/json.',
        { content_type: request.leadflow.contentType ?? null },
      );
    }
    if (problem === 'invalid_json') {
      throw new DomainError('invalid_request', 'The body is not valid JSON.', { field: '', reason: 'invalid_json' });
    }
    if (problem === 'too_deep') {
      throw new DomainError('invalid_request', `The body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels.`, { field: '', reason: 'too_deep' });
    }
    if (problem === 'forbidden_json_member') {
      throw new DomainError('invalid_request', 'The body must not contain "__proto__" or "constructor.prototype" members.', {
        field: '',
        reason: 'invalid_json',
      });
    }
  }
}

/** True for a query object without members (null and undefined included). */
function isEmpty(query: unknown): boolean {
  if (query === null || typeof query !== 'object') return true;
  for (const name in query) if (Object.prototype.hasOwnProperty.call(query, name)) return false;
  return true;
}
