import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyPrincipal, Feature, Scope } from '@leadflow/accounts-contracts';
import { OPERATOR_ACTOR } from '@leadflow/operator-contracts';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import { withRequestTrace } from '../../logging/request-trace';

export const REQUIRED_SCOPE = 'leadflow:required-scope';
export const REQUIRED_FEATURE = 'leadflow:required-feature';
export const IP_LIMIT = 'leadflow:ip-limit';
export const RAW_BODY_ROUTE = 'leadflow:body-policy';

/**
 * Scope a `/v1` route requires (403 `insufficient_scope` with `details.required_scope`), or null for
 * routes any active key may call (`/v1/me`, `/v1/usage`). Every `/v1` handler must carry it.
 */
export const RequireScope = (scope: Scope | null) => SetMetadata(REQUIRED_SCOPE, scope);

/** Plan module a route needs beyond `public_api` (403 `feature_not_available` with `details.feature`). */
export const RequireFeature = (feature: Feature) => SetMetadata(REQUIRED_FEATURE, feature);

/** Per-IP limit of a route (requests per minute), refused before the key quota is consumed. */
export interface IpLimitPolicy {
  name: string;
  perMinute: number;
  /** 429 code, e.g. `rate_limited_ip`. */
  code: string;
  /** Use the simplified body (no `type`, no `doc_url`). */
  simplified: boolean;
}

export const IpLimit = (policy: IpLimitPolicy) => SetMetadata(IP_LIMIT, policy);

export const CLEANS_TEXT = 'leadflow:cleans-text';

/**
 * Marks a route whose own parser cleans the text it stores (NUL removed, unpaired surrogates replaced:
 * lead capture, which must never lose a lead over a funnel's stray byte). Every other route refuses such
 * characters with 400 `validation_error`, reason `invalid_characters` (ApiRequestGuard).
 */
export const CleansText = () => SetMetadata(CLEANS_TEXT, true);

export const KEY_LIMIT = 'leadflow:key-limit';

/**
 * Per-key limit of a route (requests per minute, read from the calling key, e.g. `POST /v1/events`'s
 * `events_per_minute`), checked after the per-IP limit and before the hourly quota is consumed; a
 * refusal answers 429 `rate_limit_exceeded` with `details.limit_type` `per_key` and counts as a
 * limiter refusal in usage.
 */
export interface KeyLimitPolicy {
  name: string;
  perMinute: (principal: ApiKeyPrincipal) => number;
}

export const KeyLimit = (policy: KeyLimitPolicy) => SetMetadata(KEY_LIMIT, policy);

/** The principal resolved by ApiRequestGuard. */
export const CurrentKey = createParamDecorator((_: unknown, context: ExecutionContext): ApiKeyPrincipal => {
  const principal = context.switchToHttp().getRequest<FastifyRequest>().leadflow.principal;
  if (!principal) throw new Error('CurrentKey used on a route without API key authentication');
  return principal;
});

/** The calling key's account id: the first argument of every command and query. */
export const CurrentAccount = createParamDecorator((_: unknown, context: ExecutionContext): AccountId => {
  const principal = context.switchToHttp().getRequest<FastifyRequest>().leadflow.principal;
  if (!principal) throw new Error('CurrentAccount used on a route without API key authentication');
  return principal.accountId;
});

/**
 * The actor of a write made with an API key: `{ type: 'api_key', id: <key id>, name: <key name>, via: 'api_key' }`
 * (public-api-v1 › Outbound webhooks: the `actor` of an event; the activity log's `actor`).
 */
export function apiKeyActor(key: ApiKeyPrincipal): Actor {
  return { type: 'api_key', id: key.keyId, name: key.keyName, via: 'api_key' };
}

/**
 * The calling key as the {@link Actor} of the write (see {@link apiKeyActor}), for commands that record who
 * acted. The actor carries the request's id (logging/request-trace.ts), which the write's outbox rows get
 * (`platform.outbox.request_id`, issue 17, item 4): only writes pay for it, reads never build an actor.
 */
export const CurrentActor = createParamDecorator((_: unknown, context: ExecutionContext): Actor => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const principal = request.leadflow.principal;
  if (!principal) throw new Error('CurrentActor used on a route without API key authentication');
  return withRequestTrace(apiKeyActor(principal), { requestId: String(request.id) });
});

/**
 * The actor of a write no API key makes, given as the decorator's argument (the lead on the public quote
 * page, `LEAD_ACTOR`), as a fresh copy carrying the request's id like {@link CurrentActor} does, so the
 * write's outbox rows get `platform.outbox.request_id` (issue 17, item 4). The given actor is not changed.
 */
export const RequestActor = createParamDecorator((actor: Actor, context: ExecutionContext): Actor => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return withRequestTrace({ ...actor }, { requestId: String(request.id) });
});

/**
 * The operator (`OPERATOR_ACTOR`: `{ type: 'operator', id: null, name: 'operator', via: null }`) as the
 * actor of a write made through the operator API (`/admin/v1`, `ADMIN_TOKEN`) or the operator console,
 * carrying the request's id ({@link RequestActor}).
 */
export const CurrentOperatorActor = (): ParameterDecorator => RequestActor(OPERATOR_ACTOR);
