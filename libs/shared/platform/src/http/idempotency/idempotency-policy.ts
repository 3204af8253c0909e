/**
 * The `POST /v1` routes where a valid `Idempotency-Key` is validated and then ignored (every other
 * `POST /v1` route honours it; see IdempotencyInterceptor, the one place the rule is applied). Keyed by
 * `<method> <route pattern>` as Fastify registered it (`request.routeOptions.url`, the legacy `/api`
 * prefix already removed); the value is why, as written in README › Decisions and in both OpenAPI
 * descriptions. The e2e test `idempotency-key-every-post` checks that every entry names a registered
 * route, and covers every `POST /v1` route against this list.
 */
export const IDEMPOTENCY_KEY_IGNORED: Readonly<Record<string, string>> = {
  'POST /v1/emails/send': 'public-api-v1 › Emails: Idempotency-Key is not supported here; every request queues a new email.',
  'POST /v1/webhooks/:id/rotate-secret':
    'The 200 carries the new subscription secret in clear, shown once; a replay would have to keep that secret in clear in the idempotency store for 24 hours.',
  'POST /v1/webhooks':
    'The 201 carries the subscription secret in clear, shown once; a replay would have to keep that secret in clear in the idempotency store for 24 hours.',
};

/** True for a route of {@link IDEMPOTENCY_KEY_IGNORED}; `routeUrl` is the registered pattern (`/v1/automations/:id/trigger`). */
export function idempotencyKeyIgnored(method: string, routeUrl: string | undefined): boolean {
  return routeUrl !== undefined && Object.prototype.hasOwnProperty.call(IDEMPOTENCY_KEY_IGNORED, `${method} ${routeUrl}`);
}
